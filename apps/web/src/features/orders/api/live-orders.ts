import { fetchEventSource, EventStreamContentType } from '@microsoft/fetch-event-source';
import { mutate } from 'swr';
import { LIVE_EVENT_NAMES, LIVE_TIMING } from '@portal/contracts';
import { getAccessToken, refreshAccessToken } from '@/lib/api';
import { takeBootOrderFeedSeq } from '@/lib/boot';

/** Where the live connection stands: not wanted, opening, open, or down and retrying (then lists poll). */
export type LiveStatus = 'off' | 'connecting' | 'live' | 'reconnecting';

/** A retriable failure of the stream (fetch-event-source retries after what onerror answers). */
class StreamDown extends Error {}

/** Is an SWR key one of the order lists (GET /orders, /orders/attention, one order)? */
export const isOrderKey = (key: unknown) => typeof key === 'string' && /^\/orders(\/|\?|$)/.test(key);

/** The spec's reconnect delays (1, 2, 5, 10 s, then 10 s), by attempt. */
export const reconnectDelay = (attempt: number) =>
  LIVE_TIMING.reconnectDelaysMs[Math.min(attempt, LIVE_TIMING.reconnectDelaysMs.length - 1)];

/**
 * The newest order feed seq the order lists are known to include: GET /me/boot's orderFeedSeq (read before any list
 * of the page load, lib/boot.ts), then each stream's `ready` and order event ids. Undefined until one is known.
 */
let knownSeq: number | undefined;
const know = (seq: number) => {
  if (Number.isSafeInteger(seq) && (knownSeq === undefined || seq > knownSeq)) knownSeq = seq;
};

let status: LiveStatus = 'off';
let users = 0;
let stop: AbortController | null = null;
const watchers = new Set<() => void>();
function setStatus(next: LiveStatus) {
  if (status === next) return;
  status = next;
  for (const w of watchers) w();
}

/**
 * A fetch for fetch-event-source that sends the current bearer token on every (re)connect and aborts a stream
 * silent past the heartbeat plus its timeout (25 + 10 s, spec 000 §9): a dead connection is retried, not trusted.
 */
function watchedFetch(): typeof fetch {
  return async (input, init) => {
    const ctl = new AbortController();
    init?.signal?.addEventListener('abort', () => ctl.abort());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const beat = () => {
      clearTimeout(timer);
      timer = setTimeout(() => ctl.abort(new StreamDown('no heartbeat')), LIVE_TIMING.heartbeatMs + LIVE_TIMING.heartbeatTimeoutMs);
    };
    const token = getAccessToken();
    const headers = { ...(init?.headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    beat();
    const res = await fetch(input, { ...init, headers, signal: ctl.signal });
    if (!res.body) return res;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          beat();
          out.enqueue(chunk);
        },
        flush: () => clearTimeout(timer),
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** Opens GET /me/events (bearer, Last-Event-ID and reconnects by fetch-event-source); order events revalidate the order lists. */
function connect() {
  const ctl = new AbortController();
  stop = ctl;
  let attempt = 0;
  /** The server ended the stream (its life is over): reconnect at once, still "Live". */
  let ended = false;
  /** Has this connection had its first `ready`? That one may revalidate the lists (below); reconnects replay by Last-Event-ID. */
  let readied = false;
  setStatus('connecting');
  void fetchEventSource('/api/v1/me/events', {
    signal: ctl.signal,
    fetch: watchedFetch(),
    async onopen(res) {
      if (res.ok && res.headers.get('content-type')?.startsWith(EventStreamContentType)) {
        attempt = 0;
        setStatus('live');
        return;
      }
      if (res.status === 401) await refreshAccessToken();
      throw new StreamDown(`GET /me/events answered ${res.status}`);
    },
    onmessage(ev) {
      if (ev.event === LIVE_EVENT_NAMES.ready) {
        // The lists answered before the stream opened (it opens once they are on screen, useLiveOrders): an order
        // event in between would be missed, so they are asked again once, unless the feed is still where they were
        // read (the ready id, where the stream starts, is not past the known seq: no event at all since).
        const seq = Number(ev.id);
        if (!readied && !(knownSeq !== undefined && seq <= knownSeq)) void mutate(isOrderKey);
        readied = true;
        know(seq);
      } else if (ev.event === LIVE_EVENT_NAMES.order) {
        void mutate(isOrderKey);
        know(Number(ev.id));
      }
    },
    onclose() {
      ended = true;
      throw new StreamDown('the server ended the stream'); // its life ended: reconnect with Last-Event-ID
    },
    onerror() {
      if (ended) {
        ended = false;
        return 0;
      }
      setStatus('reconnecting');
      return reconnectDelay(attempt++);
    },
  }).catch(() => setStatus('reconnecting'));
}

/**
 * How long after the frame that shows the lists the stream opens. A paint's time (the largest paint's, as Chrome
 * reports it) is when the compositor presented the frame, which comes back to the page after the paint task: in
 * the traces a task right after that paint, even one a frame later, still came before it (by 0.3–46 ms), and
 * Lighthouse's simulation then chained the stream's request into the order screens' largest paint (+165 ms, issue
 * 26). Nothing waits on the stream meanwhile: the badge says Connecting, and its first `ready` asks the lists again
 * if an order event happened since they were read.
 */
const OPEN_AFTER_PAINT_MS = 250;

/** Runs `fn` OPEN_AFTER_PAINT_MS after the browser has painted the next frame (at once in a hidden tab, which paints none). */
function afterNextPaint(fn: () => void) {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState !== 'visible') setTimeout(fn);
  else requestAnimationFrame(() => setTimeout(fn, OPEN_AFTER_PAINT_MS));
}

/** Joins the shared connection (opened by the first user after the next paint, closed after the last); answers the leave. */
export function joinLiveOrders(): () => void {
  users++;
  if (users === 1) {
    // The page load's boot seq, once (resolved long before: the lists on screen were asked after it).
    void takeBootOrderFeedSeq()?.then((seq) => seq !== null && know(seq));
    setStatus('connecting');
    afterNextPaint(() => {
      if (users > 0 && !stop) connect();
    });
  }
  return () => {
    users--;
    if (users === 0) {
      stop?.abort();
      stop = null;
      setStatus('off');
    }
  };
}

/** For useSyncExternalStore: the status now, and its change listener. */
export const liveStatus = () => status;
export function watchLiveStatus(fn: () => void) {
  watchers.add(fn);
  return () => watchers.delete(fn);
}
