import { z } from 'zod';
import { meSchema, myOutletsSchema, outletStoresSchema, selectionSchema } from './me';

/**
 * GET /me/boot (issue 26): what a signed-in page load reads first, in one answer for index.html's boot script.
 * Each part is exactly what its own route answers (`me`: GET /me, `outlets`: GET /me/outlets, `selection`:
 * GET /me/selection, `stores`: GET /outlets/{selection.outletId}/stores); a part that route would refuse (403, 404)
 * or that has nothing to name (no selected outlet) is null. `orderFeedSeq` is the order feed's horizon when the
 * answer was read (every event up to it has committed or never will): every order list the page reads afterwards
 * includes the events up to it, so the app's first live stream asks the lists again only when its `ready` id (GET
 * /me/events, LIVE_EVENT_NAMES: the feed's horizon when the stream opened) is past it (apps/web
 * features/orders/api/live-orders.ts). Only the API builds this schema: the app reads the parts with their own
 * schemas, so this module stays out of the web bundle.
 */
export const meBootSchema = z.object({
  me: meSchema,
  outlets: myOutletsSchema.nullable(),
  selection: selectionSchema.nullable(),
  stores: outletStoresSchema.nullable(),
  orderFeedSeq: z.number().int().nonnegative(),
});
export type MeBoot = z.infer<typeof meBootSchema>;
