import { act, renderHook } from '@testing-library/react';
import { fetchEventSource, type FetchEventSourceInit } from '@microsoft/fetch-event-source';
import { mutate } from 'swr';
import { useLiveOrders } from './use-live-orders';

jest.mock('@microsoft/fetch-event-source', () => ({ EventStreamContentType: 'text/event-stream', fetchEventSource: jest.fn() }));
jest.mock('swr', () => ({ ...jest.requireActual('swr'), mutate: jest.fn() }));

const opened = fetchEventSource as jest.MockedFunction<typeof fetchEventSource>;
const lastInit = (): FetchEventSourceInit => opened.mock.calls[opened.mock.calls.length - 1][1];
const answer = (status: number, type = 'text/event-stream') =>
  ({ ok: status < 300, status, headers: { get: () => type } }) as unknown as Response;

/** The stream opens after the next paint (a frame, then a task): let that pass. */
const painted = () => act(() => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 260))));

beforeEach(() => {
  opened.mockReset();
  opened.mockReturnValue(new Promise(() => {}));
  (mutate as jest.Mock).mockReset();
});

describe('useLiveOrders (issue 26 §7)', () => {
  it('when two lists use it, then one GET /me/events is opened a quarter second after the next paint, and it closes after the last leaves', async () => {
    const a = renderHook(() => useLiveOrders());
    const b = renderHook(() => useLiveOrders());
    expect(opened).not.toHaveBeenCalled();
    // Right after the frame: not yet (its presentation, the largest paint's time, may come later).
    await act(() => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 20))));
    expect(opened).not.toHaveBeenCalled();
    await painted();
    expect(opened).toHaveBeenCalledTimes(1);
    expect(opened.mock.calls[0][0]).toBe('/api/v1/me/events');
    const signal = lastInit().signal!;
    a.unmount();
    expect(signal.aborted).toBe(false);
    b.unmount();
    expect(signal.aborted).toBe(true);
  });

  it('when the stream is open, then lists stop polling; when it fails, then they poll again while it reconnects after 1, 2, 5, 10 s', async () => {
    const { result, unmount } = renderHook(() => useLiveOrders());
    expect(result.current.status).toBe('connecting');
    await painted();
    expect(result.current.refreshInterval(30_000)).toBe(30_000);
    await act(async () => {
      await lastInit().onopen!(answer(200));
    });
    expect(result.current.status).toBe('live');
    expect(result.current.refreshInterval(30_000)).toBe(0);
    const delays: number[] = [];
    act(() => {
      for (let i = 0; i < 5; i++) delays.push(lastInit().onerror!(new Error('network')) as number);
    });
    expect(delays).toEqual([1000, 2000, 5000, 10_000, 10_000]);
    expect(result.current.status).toBe('reconnecting');
    expect(result.current.refreshInterval(30_000)).toBe(30_000);
    await act(async () => {
      await lastInit().onopen!(answer(200));
    });
    expect(result.current.refreshInterval(60_000)).toBe(0);
    // Back to 1 s after a successful open.
    act(() => {
      expect(lastInit().onerror!(new Error('network'))).toBe(1000);
    });
    unmount();
  });

  it('when the server ends the stream, then it reconnects at once, still live; when it refuses, then it is retried', async () => {
    const { result, unmount } = renderHook(() => useLiveOrders());
    await painted();
    await act(async () => {
      await lastInit().onopen!(answer(200));
    });
    expect(() => lastInit().onclose!()).toThrow();
    act(() => {
      expect(lastInit().onerror!(new Error('ended'))).toBe(0);
    });
    expect(result.current.status).toBe('live');
    await expect(lastInit().onopen!(answer(503, 'application/problem+json'))).rejects.toThrow(/503/);
    act(() => {
      lastInit().onerror!(new Error('closed'));
    });
    expect(result.current.status).toBe('reconnecting');
    unmount();
  });

  it('when an order event arrives, then every order list is revalidated, nothing else', async () => {
    const { unmount } = renderHook(() => useLiveOrders());
    await painted();
    lastInit().onmessage!({ event: 'ready', data: '{"seq":4}', id: '4', retry: undefined });
    (mutate as jest.Mock).mockClear(); // the first ready's own revalidation (below): no boot seq here
    lastInit().onmessage!({ event: 'order', data: '{"seq":5}', id: '5', retry: undefined });
    expect(mutate).toHaveBeenCalledTimes(1);
    const matches = (mutate as jest.Mock).mock.calls[0][0] as (key: unknown) => boolean;
    expect(['/orders?storeId=2190', '/orders', '/orders/attention?storeId=1', '/orders/12'].map(matches)).toEqual([true, true, true, true]);
    expect(['/me', '/ordersx', '/carts/current', ['/orders']].map(matches)).toEqual([false, false, false, false]);
    unmount();
  });

  it('when a list enables it only once its answer is shown, then the stream opens after that, not before', async () => {
    const { rerender, unmount } = renderHook(({ shown }) => useLiveOrders(shown), { initialProps: { shown: false } });
    await painted();
    expect(opened).not.toHaveBeenCalled();
    rerender({ shown: true });
    await painted();
    expect(opened).toHaveBeenCalledTimes(1);
    unmount();
  });

  it('when the list leaves before the next paint, then no stream is opened', async () => {
    const { result, unmount } = renderHook(() => useLiveOrders());
    expect(result.current.status).toBe('connecting');
    unmount();
    await painted();
    expect(opened).not.toHaveBeenCalled();
  });

  it('when disabled, then no stream is opened', async () => {
    const { result, unmount } = renderHook(() => useLiveOrders(false));
    await painted();
    expect(opened).not.toHaveBeenCalled();
    expect(result.current.status).toBe('off');
    unmount();
  });
});

/** A fresh copy of live-orders.ts (no feed seq known yet) with the mocks that copy sees. */
async function freshLiveOrders() {
  let live!: typeof import('./live-orders');
  let swr!: { mutate: jest.Mock };
  let source!: { fetchEventSource: jest.MockedFunction<typeof fetchEventSource> };
  await jest.isolateModulesAsync(async () => {
    live = await import('./live-orders');
    swr = (await import('swr')) as unknown as { mutate: jest.Mock };
    source = (await import('@microsoft/fetch-event-source')) as unknown as typeof source;
  });
  source.fetchEventSource.mockReturnValue(new Promise(() => {}));
  const init = (): FetchEventSourceInit => source.fetchEventSource.mock.calls[source.fetchEventSource.mock.calls.length - 1][1];
  const ready = (seq: number) => init().onmessage!({ event: 'ready', data: JSON.stringify({ seq }), id: String(seq), retry: undefined });
  return { join: live.joinLiveOrders, mutate: swr.mutate, init, ready };
}

describe("the first stream's revalidation (the lists answered before it opened)", () => {
  afterEach(() => {
    delete window.__portalBoot;
  });

  it('when no feed seq is known, then the first ready asks the order lists again once; a reconnect does not', async () => {
    const live = await freshLiveOrders();
    const leave = live.join();
    await painted();
    await act(async () => {
      await live.init().onopen!(answer(200));
    });
    expect(live.mutate).not.toHaveBeenCalled();
    live.ready(7);
    expect(live.mutate).toHaveBeenCalledTimes(1);
    const matches = live.mutate.mock.calls[0][0] as (key: unknown) => boolean;
    expect(['/orders?storeId=2190', '/me'].map(matches)).toEqual([true, false]);
    act(() => {
      live.init().onerror!(new Error('network'));
    });
    live.ready(7);
    expect(live.mutate).toHaveBeenCalledTimes(1);
    leave();
  });

  it("when the ready id is the page load's boot seq (no order event since the lists were read), then they are not asked again", async () => {
    window.__portalBoot = { data: {}, orderFeedSeq: Promise.resolve(40) };
    const live = await freshLiveOrders();
    const leave = live.join();
    expect(window.__portalBoot.orderFeedSeq).toBeUndefined(); // taken once
    await painted();
    live.ready(40);
    expect(live.mutate).not.toHaveBeenCalled();
    // An order event still revalidates them.
    live.init().onmessage!({ event: 'order', data: '{"seq":41}', id: '41', retry: undefined });
    expect(live.mutate).toHaveBeenCalledTimes(1);
    leave();
    // Back later: the next stream starts at 41, what the lists were asked again after: nothing to ask.
    const again = live.join();
    await painted();
    live.ready(41);
    expect(live.mutate).toHaveBeenCalledTimes(1);
    again();
  });

  it.each([
    ['the feed moved past the boot seq before the stream opened', 40, 42],
    ['the boot answer had no seq (it failed)', null, 3],
  ])('when %s, then the first ready asks the lists again once', async (_case, bootSeq, readyId) => {
    window.__portalBoot = { data: {}, orderFeedSeq: Promise.resolve(bootSeq) };
    const live = await freshLiveOrders();
    const leave = live.join();
    await painted();
    live.ready(readyId);
    expect(live.mutate).toHaveBeenCalledTimes(1);
    leave();
  });
});
