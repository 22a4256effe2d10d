import { screen, waitFor } from '@testing-library/react';
import { meBootSchema, meSchema, outletStoresSchema, type Me, type MeBoot } from '@portal/contracts';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { meFixture } from '@/test/me-fixture';
import { renderSession, sessionNow } from '@/test/render-session';
import { BOOT_JWT, installBootApi, runBootScript, uninstallBootApi } from '@/test/boot-script';
import { getAccessToken, getBootedJson } from './api';

const me: Me = meFixture({ permissions: ['bcc.carts.use'] });

/** Issue 26: index.html's boot script asks for the token and /me while the scripts download; the session takes them. */
describe('the boot script’s answers (lib/boot)', () => {
  let api: FakeApi;
  beforeEach(() => {
    document.cookie = 'portal_signed_in=1; path=/';
    api = new FakeApi().install();
  });
  afterEach(() => {
    api.uninstall();
    delete window.__portalBoot;
  });

  it('when the boot script has the token and /me, then the session is signed in with them and asks neither again', async () => {
    window.__portalBoot = { token: Promise.resolve(BOOT_JWT), data: { '/me': Promise.resolve(me) } };
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    expect(sessionNow().me?.profile.fullName).toBe('Blake Buyer');
    expect(getAccessToken()).toBe(BOOT_JWT);
    expect(api.calls).toEqual([]);
    expect(window.__portalBoot).toEqual({ data: {} });
  });

  it('when the boot script’s /me failed, then the session asks GET /me itself', async () => {
    api.on('get', '/me', reply(meSchema, me));
    window.__portalBoot = { token: Promise.resolve(BOOT_JWT), data: { '/me': Promise.resolve(null) } };
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    expect(api.urls('get')).toEqual(['/me']);
  });

  it('when the app asks a path the script asks only once GET /me/boot is in, then it waits for that answer and asks nothing itself', async () => {
    let settle!: () => void;
    const data: Record<string, Promise<unknown>> = {};
    window.__portalBoot = { token: Promise.resolve(BOOT_JWT), data, settled: new Promise<void>((ok) => (settle = ok)) };
    // The app knows the outlet from the selection this browser saw last, before the boot answer is in.
    const asked = getBootedJson('/outlets/7/stores', outletStoresSchema);
    await Promise.resolve();
    expect(api.calls).toEqual([]);
    // The boot answer comes in: the script hands out the selected outlet's stores, then settles.
    data['/outlets/7/stores'] = Promise.resolve({ items: [] });
    settle();
    await expect(asked).resolves.toEqual({ items: [] });
    expect(api.calls).toEqual([]);
  });

  it('when the boot answer is in and the script did not ask for the path, then the app asks it itself', async () => {
    api.on('get', '/outlets/{outletId}/stores', reply(outletStoresSchema, { items: [] }));
    window.__portalBoot = { data: {}, settled: Promise.resolve(null) };
    await expect(getBootedJson('/outlets/8/stores', outletStoresSchema)).resolves.toEqual({ items: [] });
    expect(api.urls('get')).toEqual(['/outlets/8/stores']);
  });

  it('when the boot script’s refresh was refused, then the session is signed out and drops the rest of its answers', async () => {
    window.__portalBoot = { token: Promise.resolve(null), data: { '/me': Promise.resolve(null) } };
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated'));
    expect(window.__portalBoot).toBeUndefined();
    expect(api.calls).toEqual([]);
  });
});

/** index.html's boot script itself (run as the browser runs it), against the fake API. */
describe('index.html’s boot script', () => {
  const boot: MeBoot = {
    me,
    outlets: { items: [] },
    selection: { outletId: 7, storeId: 2190 },
    stores: { items: [] },
    orderFeedSeq: 12,
  };
  let api: FakeApi;
  beforeEach(() => {
    // On a screen whose first data the script does not ask for (those that it asks: app/boot-screens.test.tsx).
    window.history.replaceState(null, '', '/profile');
    api = installBootApi();
  });
  afterEach(() => uninstallBootApi(api));

  it('when the session refreshes, then one GET /me/boot answers /me, /me/outlets, the selection and its stores, with the token', async () => {
    api.on('get', '/me/boot', reply(meBootSchema, boot));
    const { token, data, orderFeedSeq } = await runBootScript();
    expect(api.calls.map((c) => `${c.method} ${c.url}`)).toEqual(['post /auth/refresh', 'get /me/boot']);
    expect(api.headerOf(api.calls[1], 'Authorization')).toBe(`Bearer ${BOOT_JWT}`);
    expect(token).toBe(BOOT_JWT);
    // The order feed's seq goes to the live order updates (features/orders live-orders.ts).
    expect(orderFeedSeq).toBe(12);
    expect(data).toEqual({
      '/me': boot.me,
      '/me/outlets': boot.outlets,
      '/me/selection': boot.selection,
      '/outlets/7/stores': boot.stores,
    });
  });

  it('when a part is null (its own route would refuse), then it is handed out as null and no stores are named', async () => {
    api.on('get', '/me/boot', reply(meBootSchema, { me, outlets: null, selection: null, stores: null, orderFeedSeq: 0 }));
    const { data } = await runBootScript();
    expect(data).toEqual({ '/me': me, '/me/outlets': null, '/me/selection': null });
  });

  it('when GET /me/boot fails, then every part is null (the app asks each route itself)', async () => {
    api.on('get', '/me/boot', problem(500, 'internal_error'));
    const { token, data, orderFeedSeq } = await runBootScript();
    expect(token).toBe(BOOT_JWT);
    expect(orderFeedSeq).toBeNull();
    expect(data).toEqual({ '/me': null, '/me/outlets': null, '/me/selection': null });
  });

  it('when the refresh is refused, then /me/boot is not asked and the token is null', async () => {
    api.on('post', '/auth/refresh', problem(401, 'unauthenticated'));
    const { token, data } = await runBootScript();
    expect(api.urls('get')).toEqual([]);
    expect(token).toBeNull();
    expect(data).toEqual({ '/me': null, '/me/outlets': null, '/me/selection': null });
  });
});
