import type { LiveOrderEvent } from '@portal/contracts';
import type { AppContext, OrderEventSignal } from '../../context';
import type { NotificationSubscriber } from '../../db/notifications';
import { findPrincipal, type Principal } from '../access/access.service';
import * as repo from './live-events.repository';
import { feedHorizon } from './order-events.repository';
import { orderScopeOf } from './orders.service';

/** Events one read sends at most; a longer backlog is read again at once (the stream catches up page by page). */
const PAGE = 200;

/**
 * How soon a stream reads again while one of its caller's events past the feed's horizon has committed (an earlier
 * append still in flight holds the horizon below it). The earlier append's commit signals as any does; its rollback sends nothing,
 * so the stream looks again on its own.
 */
const HORIZON_RECHECK_MS = 250;

/**
 * The order-event signal of one API process (context.ts OrderEventSignal) over LISTEN/NOTIFY: `subscriber` joins
 * db/notifications.ts's connection (channel `order_events_appended`, payload: the highest seq a statement
 * appended, sent at commit by migration 2026112900010002's trigger) and tells every live stream.
 */
export function createOrderEventHub(): OrderEventSignal & { subscriber: NotificationSubscriber } {
  const listeners = new Set<(seq: number) => void>();
  let listening = false;
  const tell = (seq: number) => {
    for (const l of listeners) l(seq);
  };
  return {
    get listening() {
      return listening;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscriber: {
      channels: ['order_events_appended'],
      onNotification: (_channel, payload) => tell(Number(payload) || Number.MAX_SAFE_INTEGER),
      onListening: () => {
        listening = true;
        tell(Number.MAX_SAFE_INTEGER); // whatever was appended while deaf is read now
      },
      onLost: () => {
        listening = false;
      },
    },
  };
}

/** Where a live stream writes (the route's better-sse session): order events, the ready event, heartbeats, the end. */
export interface LiveSink {
  order(event: LiveOrderEvent): void;
  ready(seq: number): void;
  heartbeat(): void;
  close(): void;
  /** Resolves when the client went away. */
  readonly gone: Promise<void>;
}

const toEvent = (r: repo.LiveEventRow): LiveOrderEvent => ({ ...r, occurredAt: r.occurredAt.toISOString() });

/**
 * Runs one live stream of GET /me/events (issue 26 §7) until the client leaves, the stream's life
 * (LIVE_STREAM_MAX_SECONDS) ends or the caller's session does: first a `ready` event whose id is the seq the
 * stream starts after — `lastEventId` (Last-Event-ID) when given, then the events the client missed are sent
 * first; else the feed's horizon — then every order event the caller may see (the rule of GET /orders,
 * ARCHITECTURE §11: their own orders, the stores and outlets where they manage orders), id = seq, as it commits
 * (ctx.orderEvents; every LIVE_POLL_SECONDS when absent or not listening). A read that finds events for the caller
 * sends them only up to the feed's horizon, so an event whose append commits after a higher seq's is still sent, in
 * seq order; while one of the caller's committed events waits past the horizon, the stream reads again every
 * HORIZON_RECHECK_MS. A signal with nothing for the caller costs one query, as before. A heartbeat comment every
 * LIVE_HEARTBEAT_SECONDS also reloads the caller: a deactivated user, a revoked session or lost permissions
 * apply within one heartbeat (the stream ends, or shows less).
 */
export async function runLiveStream(ctx: AppContext, caller: Principal, lastEventId: number | undefined, sink: LiveSink): Promise<void> {
  const { config } = ctx;
  let actor = caller;
  let after = lastEventId ?? (await feedHorizon(ctx.db));
  let open = true;
  let reading: Promise<void> | undefined;
  let again = false;
  let recheck: NodeJS.Timeout | undefined;

  const read = async () => {
    do {
      again = false;
      const scope = orderScopeOf(ctx.db, actor);
      // Most signals are another store's or outlet's event: one read finds nothing for this caller (a signal heard
      // meanwhile still reads again: `continue` goes to the loop's condition).
      const seen = await repo.findVisibleEventsAfter(ctx.db, scope, after, undefined, PAGE);
      if (!seen.length) continue;
      // Something to send: only up to the horizon (read first, then the events in a later statement), so that an
      // event whose append commits after a higher seq's is not passed by the cursor.
      const horizon = await feedHorizon(ctx.db);
      const rows = horizon > after ? await repo.findVisibleEventsAfter(ctx.db, scope, after, horizon, PAGE) : [];
      for (const r of rows) if (open) sink.order(toEvent(r));
      if (rows.length === PAGE) {
        after = rows[rows.length - 1].seq;
        again = true;
      } else {
        after = Math.max(after, horizon); // every event up to the horizon has been read: the caller's are sent
        if (seen[seen.length - 1].seq > horizon && open && !recheck)
          recheck = setTimeout(() => {
            recheck = undefined;
            wake();
          }, HORIZON_RECHECK_MS);
      }
    } while (again && open);
  };
  /** One read at a time; a signal during a read asks for another one after it. */
  const wake = () => {
    if (!open) return;
    if (reading) {
      again = true;
      return;
    }
    reading = read()
      .catch((err: unknown) => ctx.logger.warn({ err }, 'live stream: reading the order feed failed; retried on the next signal'))
      .finally(() => {
        reading = undefined;
      });
  };

  sink.ready(after);
  if (lastEventId !== undefined) wake();
  const unsubscribe = ctx.orderEvents?.subscribe(() => wake());
  const poll = setInterval(() => {
    if (!ctx.orderEvents?.listening) wake();
  }, config.livePollMs);
  const heartbeat = setInterval(() => {
    sink.heartbeat();
    void findPrincipal(ctx.db, caller.userId, caller.sessionId)
      .then((p) => {
        if (!p || !p.isActive || !p.sessionLive) end();
        else actor = p;
      })
      .catch(() => undefined);
  }, config.liveHeartbeatMs);
  let stop = () => {};
  const lifetime = new Promise<void>((ok) => {
    stop = ok;
  });
  const maxLife = setTimeout(() => stop(), config.liveStreamMaxMs);
  function end() {
    stop();
  }
  await Promise.race([sink.gone, lifetime]);
  open = false;
  unsubscribe?.();
  clearInterval(poll);
  clearInterval(heartbeat);
  clearTimeout(maxLife);
  clearTimeout(recheck);
  await reading;
  sink.close();
}
