import { createSession } from 'better-sse';
import { LIVE_EVENT_NAMES, liveEventsHeadersSchema } from '@portal/contracts';
import { streamingResponse } from '../../http/metrics';
import { route } from '../../http/route';
import * as live from './live-events.service';

/**
 * GET /me/events (issue 26 §7, ARCHITECTURE §5): live order updates as server-sent events (better-sse). The
 * answer is never compressed (app.ts compressResponses skips text/event-stream) and is left out of the request
 * duration metrics (a stream's duration is its life); open streams are the `portal_live_streams` gauge.
 */
export const liveEventsRoutes = [
  route({
    method: 'get',
    path: '/me/events',
    scope: 'self',
    tags: ['orders'],
    headers: liveEventsHeadersSchema,
    summary: 'Live order updates for the caller (text/event-stream; Last-Event-ID resumes)',
    description:
      'Server-sent events: `ready` (id: the seq the stream starts after), then `order` events (id: the order feed seq; data: ' +
      'LiveOrderEvent JSON) for the orders GET /orders lists to the caller, and a `: heartbeat` comment every LIVE_HEARTBEAT_SECONDS ' +
      '(25). With Last-Event-ID the missed events come first. The stream ends after LIVE_STREAM_MAX_SECONDS or when the session ' +
      'ends; the client reconnects with Last-Event-ID. Send the access token as a Bearer header.',
    response: { status: 200, description: 'text/event-stream of order events and heartbeats' },
    errors: { 401: 'No or an expired session' },
    handler: async (actor, { headers }, { ctx, req, res }) => {
      streamingResponse(res);
      const session = await createSession(req, res, {
        keepAlive: null, // the heartbeat is the service's (it also rechecks the session)
        retry: 1000,
        trustClientEventId: false, // Last-Event-ID is parsed by the route's schema
        headers: { 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
      });
      const gone = new Promise<void>((ok) => {
        if (!session.isConnected) ok();
        session.once('disconnected', () => ok());
      });
      void live.runLiveStream(ctx, actor, headers['last-event-id'], {
        order: (e) => session.isConnected && session.push(e, LIVE_EVENT_NAMES.order, String(e.seq)),
        ready: (seq) => session.isConnected && session.push({ seq }, LIVE_EVENT_NAMES.ready, String(seq)),
        heartbeat: () => session.isConnected && void session.batch((b) => void b.comment('heartbeat').dispatch()),
        close: () => res.end(),
        gone,
      });
    },
  }),
];
