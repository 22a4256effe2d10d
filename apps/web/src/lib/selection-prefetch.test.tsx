import { waitFor } from '@testing-library/react';
import type { FakeApi } from '@/test/fake-api';
import type { KnownSelection } from './selection';

// Each test loads the modules afresh: SWR's preload map and the selection listeners live in module state.
let whenSelectionKnown: typeof import('./selection').whenSelectionKnown;
let SESSION_TOKEN_EVENT: string;

/** Issue 26: on a signed-in page load, screens hear the saved selection as soon as it is known, to start their data. */
describe('whenSelectionKnown', () => {
  let api: FakeApi;
  let server = { outletId: 1, storeId: 2190 };
  beforeEach(() => {
    server = { outletId: 1, storeId: 2190 };
    localStorage.clear();
    jest.resetModules();
    ({ whenSelectionKnown } = jest.requireActual<typeof import('./selection')>('./selection'));
    ({ SESSION_TOKEN_EVENT } = jest.requireActual<typeof import('./session')>('./session'));
    const { FakeApi, reply } = jest.requireActual<typeof import('@/test/fake-api')>('@/test/fake-api');
    const { selectionSchema, myOutletsSchema, outletStoresSchema } =
      jest.requireActual<typeof import('@portal/contracts')>('@portal/contracts');
    api = new FakeApi()
      .on('get', '/me/outlets', reply(myOutletsSchema, { items: [] }))
      .on('get', '/me/selection', () => reply(selectionSchema, server))
      .on('get', '/outlets/{outletId}/stores', reply(outletStoresSchema, { items: [] }))
      .install();
  });
  afterEach(() => {
    api.uninstall();
    delete window.__portalBoot;
  });

  it('when the token is back on a first visit, then listeners hear the server’s selection once and the browser remembers it', async () => {
    const heard: KnownSelection[] = [];
    const stop = whenSelectionKnown((s) => heard.push(s));
    window.dispatchEvent(new Event(SESSION_TOKEN_EVENT));
    await waitFor(() => expect(heard).toEqual([{ outletId: 1, storeId: 2190 }]));
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem('portal.last-selection') ?? 'null')).toEqual({ outletId: 1, storeId: 2190 }),
    );
    stop();
  });

  it('when the browser remembers a selection, then listeners hear it before /me/selection answers, and again only if the server’s differs', async () => {
    localStorage.setItem('portal.last-selection', JSON.stringify({ outletId: 1, storeId: 2190 }));
    server = { outletId: 2, storeId: 2614 };
    const heard: KnownSelection[] = [];
    const stop = whenSelectionKnown((s) => heard.push({ ...s, calls: api.urls('get').length } as KnownSelection));
    window.dispatchEvent(new Event(SESSION_TOKEN_EVENT));
    // Heard at once, before any request has even been sent.
    expect(heard).toEqual([{ outletId: 1, storeId: 2190, calls: 0 }]);
    await waitFor(() =>
      expect(heard.map(({ outletId, storeId }) => ({ outletId, storeId }))).toEqual([
        { outletId: 1, storeId: 2190 },
        { outletId: 2, storeId: 2614 },
      ]),
    );
    stop();
  });

  it('when the remembered value is malformed, then it is ignored', async () => {
    localStorage.setItem('portal.last-selection', '{"outletId":"1; drop","storeId":2}');
    server = { outletId: 3, storeId: null as unknown as number };
    const heard: KnownSelection[] = [];
    const stop = whenSelectionKnown((s) => heard.push(s));
    window.dispatchEvent(new Event(SESSION_TOKEN_EVENT));
    await waitFor(() => expect(heard).toEqual([{ outletId: 3, storeId: null }]));
    stop();
  });

  it('when a screen subscribes after the selection is known, then it hears it at once; after a sign-out it does not', async () => {
    const first: KnownSelection[] = [];
    const stopFirst = whenSelectionKnown((s) => first.push(s));
    window.dispatchEvent(new Event(SESSION_TOKEN_EVENT));
    await waitFor(() => expect(first).toEqual([{ outletId: 1, storeId: 2190 }]));
    const late: KnownSelection[] = [];
    const stopLate = whenSelectionKnown((s) => late.push(s));
    expect(late).toEqual([{ outletId: 1, storeId: 2190 }]);
    window.dispatchEvent(new CustomEvent('portal:signed-out', { detail: { reason: 'signed-out' } }));
    const afterSignOut: KnownSelection[] = [];
    const stopAfter = whenSelectionKnown((s) => afterSignOut.push(s));
    expect(afterSignOut).toEqual([]);
    [stopFirst, stopLate, stopAfter].forEach((stop) => stop());
  });

  it('when the boot script already has the outlets, the selection and its stores, then they are taken from it and not asked again', async () => {
    server = { outletId: 9, storeId: 9999 };
    const boot = { outletId: 1, storeId: 2190 };
    window.__portalBoot = {
      data: {
        '/me/outlets': Promise.resolve({ items: [] }),
        '/me/selection': Promise.resolve(boot),
        '/outlets/1/stores': Promise.resolve({ items: [] }),
      },
    };
    const heard: KnownSelection[] = [];
    const stop = whenSelectionKnown((s) => heard.push(s));
    window.dispatchEvent(new Event(SESSION_TOKEN_EVENT));
    await waitFor(() => expect(heard).toEqual([boot]));
    await waitFor(() => expect(window.__portalBoot?.data).toEqual({}));
    expect(api.urls('get')).toEqual([]);
    stop();
  });

  it('when the boot script’s request failed, then the app asks the API itself', async () => {
    window.__portalBoot = { data: { '/me/selection': Promise.resolve(null) } };
    const heard: KnownSelection[] = [];
    const stop = whenSelectionKnown((s) => heard.push(s));
    window.dispatchEvent(new Event(SESSION_TOKEN_EVENT));
    await waitFor(() => expect(heard).toEqual([{ outletId: 1, storeId: 2190 }]));
    expect(api.urls('get')).toContain('/me/selection');
    stop();
  });
});
