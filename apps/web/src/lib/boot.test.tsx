import { screen, waitFor } from '@testing-library/react';
import type { Me } from '@portal/contracts';
import { FakeApi } from '@/test/fake-api';
import { meFixture } from '@/test/me-fixture';
import { renderSession, sessionNow } from '@/test/render-session';
import { getAccessToken } from './api';

const jwt = `h.${btoa(JSON.stringify({ sub: 'u1', exp: Math.floor(Date.now() / 1000) + 900 }))}.s`;
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
    window.__portalBoot = { token: Promise.resolve(jwt), data: { '/me': Promise.resolve(me) } };
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    expect(sessionNow().me?.profile.fullName).toBe('Blake Buyer');
    expect(getAccessToken()).toBe(jwt);
    expect(api.calls).toEqual([]);
    expect(window.__portalBoot).toEqual({ data: {} });
  });

  it('when the boot script’s /me failed, then the session asks GET /me itself', async () => {
    const { reply } = jest.requireActual<typeof import('@/test/fake-api')>('@/test/fake-api');
    const { meSchema } = jest.requireActual<typeof import('@portal/contracts')>('@portal/contracts');
    api.on('get', '/me', reply(meSchema, me));
    window.__portalBoot = { token: Promise.resolve(jwt), data: { '/me': Promise.resolve(null) } };
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    expect(api.urls('get')).toEqual(['/me']);
  });

  it('when the boot script’s refresh was refused, then the session is signed out and drops the rest of its answers', async () => {
    window.__portalBoot = { token: Promise.resolve(null), data: { '/me': Promise.resolve(null) } };
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated'));
    expect(window.__portalBoot).toBeUndefined();
    expect(api.calls).toEqual([]);
  });
});
