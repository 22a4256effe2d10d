import { z } from 'zod';

/**
 * Live updates (issue 26 §7, spec 000 §9, ARCHITECTURE §5 GET /me/events): a text/event-stream whose `order`
 * events carry the order feed's seq as the event id (Last-Event-ID resumes after it), a `ready` event (id: the
 * seq the stream starts after) once connected, and a `: heartbeat` comment every LIVE_HEARTBEAT_SECONDS (25).
 * Order events come in seq order, each once its append and every earlier one have committed or rolled back.
 */
export const LIVE_EVENT_NAMES = { order: 'order', ready: 'ready' } as const;
/** The spec's realtime constants (spec 000 §9): heartbeat 25 s, timeout 10 s, reconnect delays 1, 2, 5, 10 s. */
export const LIVE_TIMING = { heartbeatMs: 25_000, heartbeatTimeoutMs: 10_000, reconnectDelaysMs: [1000, 2000, 5000, 10_000] } as const;

/** The data of an `order` event: which order changed, where, and how (the feed's event type, its status now). */
export const liveOrderEventSchema = z.object({
  seq: z.number().int(),
  type: z.string(),
  orderId: z.number().int(),
  storeId: z.number().int(),
  outletId: z.number().int(),
  status: z.string(),
  occurredAt: z.string(),
});
export type LiveOrderEvent = z.infer<typeof liveOrderEventSchema>;

/** The data of the `ready` event: the seq the stream starts after. */
export const liveReadySchema = z.object({ seq: z.number().int() });
export type LiveReady = z.infer<typeof liveReadySchema>;

/** The Last-Event-ID request header: an order feed seq (anything else starts from now). */
export const liveEventsHeadersSchema = z.object({
  'last-event-id': z
    .string()
    .max(40)
    .optional()
    .transform((v) => (v && /^\d{1,18}$/.test(v.trim()) ? Number(v.trim()) : undefined)),
});
