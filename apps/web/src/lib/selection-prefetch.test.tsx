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
  afterEach(() => api.uninstall());

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
});
