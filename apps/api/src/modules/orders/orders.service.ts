import pino from 'pino';
import {
  PROBLEM_CODES,
  ORDER_MESSAGES,
  PERMISSIONS,
  type ListOrdersQuery,
  type OrderDetail,
  type OrderList,
  type ReorderResult,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { ForbiddenError, NotFoundError, UnprocessableError } from '../../http/errors';
import { mayActAt, reach, type Actor } from '../access/access.service';
import * as carts from '../carts/carts.service';
import { loadDetail, toOrder } from './order-detail';
import * as repo from './orders.repository';
import { transition, type LifecycleTarget } from './lifecycle';
import type { SettleDeps } from './settlement';

/**
 * Orders (spec 001 §§3–7, spec 002 §§4–5, ARCHITECTURE §6): placing an order from a checkout session,
 * paying in-store or by card, order history, store order management and reorder.
 */

export { placeOrder } from './placement';
// The orders module's face for other modules (integrations: status moves by API keys and the order feed).
export { transition } from './lifecycle';
export { ORDER_EVENT_ITEM_JSON, appendOrderEvent, appendTestOrderEvent, feedHorizon, watchOrderEventAppends } from './order-events';
export type { SettleDeps } from './settlement';

/**
 * Whose orders `caller` may list (GET /orders, and the live streams of GET /me/events): their own; with
 * bcc.orders.store.manage also the stores where they hold it, else with bcc.orders.outlet.manage the outlets
 * where they hold it (ARCHITECTURE §11). `mine`: their own only.
 */
export function orderScopeOf(db: Db, caller: Actor, mine = false): repo.OrderScope {
  const manages = !mine && caller.permissions.has(PERMISSIONS.ordersStoreManage);
  const managesOutlets = !mine && !manages && caller.permissions.has(PERMISSIONS.ordersOutletManage);
  return {
    userId: caller.userId,
    stores: manages ? (reach(db, caller, PERMISSIONS.ordersStoreManage, 'store') ?? 'all') : undefined,
    outlets: managesOutlets ? (reach(db, caller, PERMISSIONS.ordersOutletManage, 'outlet') ?? 'all') : undefined,
  };
}

/**
 * GET /orders: placed orders (in-store reservations and paid card orders), newest first. Everyone sees
 * their own; holders of bcc.orders.store.manage also every order of the stores where they hold it (scope
 * 'store': a store grant reaches that store only, a board grant its stores; ARCHITECTURE §11); holders of
 * bcc.orders.outlet.manage every order of the outlets where they hold it (scope 'outlet', spec 001 §2
 * Store Orders subtitle). `mine` narrows to one's own orders.
 */
export async function listOrders(db: Db, caller: Actor, q: ListOrdersQuery): Promise<OrderList> {
  const scope = orderScopeOf(db, caller, q.mine);
  const manages = scope.stores !== undefined;
  const managesOutlets = scope.outlets !== undefined;
  const [rows, counts] = await Promise.all([repo.findPlaced(db, scope, q), repo.countByStatus(db, scope, q.storeId)]);
  const lines = await repo.findLines(
    db,
    rows.map((r) => r.id),
  );
  const byOrder = new Map<number, repo.OrderLineRow[]>();
  for (const l of lines) byOrder.set(l.orderId, [...(byOrder.get(l.orderId) ?? []), l]);
  const n = (s: string) => counts[s] ?? 0;
  return {
    items: rows.map((r) => toOrder(r, byOrder.get(r.id) ?? [])),
    scope: manages ? 'store' : managesOutlets ? 'outlet' : 'own',
    counts: {
      reserved: n('reserved'),
      ready: n('ready'),
      completed: n('completed'),
      cancelled: n('cancelled'),
      all: Object.values(counts).reduce((a, b) => a + b, 0),
    },
  };
}

/** GET /orders/latest: the caller's newest placed order; 404 'Order not found' when none. */
export async function latestOrder(db: Db, caller: Actor): Promise<OrderDetail> {
  const row = await repo.findLatestPlaced(db, caller.userId);
  if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
  return (await loadDetail(db, row.id)).detail;
}

/**
 * GET /orders/{id}: the caller's own order, or (bcc.orders.store.manage) an order of a store where they hold
 * it, or (bcc.orders.outlet.manage) an order of an outlet where they hold it; anything else 404 'Order not
 * found' (ARCHITECTURE §4). The route's declared scope (`order`, access/rows.ts) checks it before this runs.
 */
export async function getOrder(db: Db, _caller: Actor, orderId: number): Promise<OrderDetail> {
  const row = await repo.findById(db, orderId);
  if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
  return (await loadDetail(db, orderId)).detail;
}

/**
 * POST /orders/{id}/ready (spec 001 §4): reserved → ready by store staff of the order's store. 404 when
 * the store is not reachable; 409 `order_not_reserved` from any other status; 409
 * `order_awaiting_payment` for a card order not paid. The route requires bcc.orders.store.manage.
 * Appends order.ready and mails the buyer when `deps` carries the mailer.
 */
export async function markReady(db: Db, caller: Actor, orderId: number, deps?: Omit<SettleDeps, 'db'>): Promise<OrderDetail> {
  return moveInStore({ ...(deps ?? NO_MAIL), db }, caller, orderId, 'ready');
}

/** POST /orders/{id}/complete: ready → completed by store staff of the order's store (404 out of reach, 409 with the status otherwise). */
export async function completeOrder(deps: SettleDeps, caller: Actor, orderId: number, ip?: string | null): Promise<OrderDetail> {
  return moveInStore(deps, caller, orderId, 'completed', null, ip);
}

/**
 * POST /orders/{id}/cancel: reserved / ready (or cancel_pending, to retry the refund) →
 * cancelled with the store's reason; a card-paid order is refunded first (502 refund_failed → cancel_pending).
 */
export async function cancelOrder(
  deps: SettleDeps,
  caller: Actor,
  orderId: number,
  reason: string,
  ip?: string | null,
): Promise<OrderDetail> {
  return moveInStore(deps, caller, orderId, 'cancelled', reason, ip);
}

const NO_MAIL = {
  config: undefined as unknown as SettleDeps['config'],
  mailer: { enqueue: async () => undefined },
  logger: pino({ enabled: false }),
};

async function moveInStore(
  deps: SettleDeps,
  caller: Actor,
  orderId: number,
  target: LifecycleTarget,
  reason?: string | null,
  ip?: string | null,
): Promise<OrderDetail> {
  // The route's declared scope (`storeOrder`: bcc.orders.store.manage at the order's store) ran before this.
  if (!(await repo.findById(deps.db, orderId))) throw new NotFoundError(ORDER_MESSAGES.notFound);
  return transition(deps, orderId, target, { actor: { userId: caller.userId }, ip, via: 'store' }, reason);
}

/**
 * POST /orders/{id}/reorder (spec 001 §4): adds each line's quantity of the caller's own order to their
 * active cart for `target` (the outlet × store the person is looking at), else for the order's
 * own outlet × store (carts service; lines cap at 999); the answer names the cart's outlet and store.
 * 404 for another's order or a target outside the caller's outlets and stores; 422 'No items to reorder'
 * for an order without lines; 403 when the order's outlet or store is out of reach (no target).
 * Lines the cart's store does not sell are skipped with a reason.
 */
export async function reorder(
  db: Db,
  caller: Actor,
  orderId: number,
  target: { outletId?: number; storeId?: number } = {},
): Promise<ReorderResult> {
  const row = await repo.findById(db, orderId);
  if (!row || row.userId !== caller.userId) throw new NotFoundError(ORDER_MESSAGES.notFound);
  const lines = await repo.findLines(db, [orderId]);
  if (!lines.length) throw new UnprocessableError(ORDER_MESSAGES.noItemsToReorder, PROBLEM_CODES.nothingToReorder);
  const outletId = target.outletId ?? row.outletId;
  const storeId = target.storeId ?? row.storeId;
  if (!(await mayActAt(db, caller, PERMISSIONS.cartsUse, outletId, storeId))) {
    if (target.outletId !== undefined) throw new NotFoundError('Store not found');
    throw new ForbiddenError("You no longer have access to this order's outlet or store.");
  }
  return db.transaction(async (trx) => {
    const cart = await carts.findOrCreateActiveCart(trx, caller.userId, outletId, storeId);
    let added = 0;
    const skipped: ReorderResult['skipped'] = [];
    for (const l of lines) {
      if ((await carts.addItemQuantity(trx, cart.id, l.itemCode, l.quantity)).added) added++;
      else skipped.push({ itemCode: l.itemCode, itemName: l.itemName, reason: 'No longer available from this store' });
    }
    return { cartId: cart.id, outletId, storeId, added, skipped, message: ORDER_MESSAGES.reorderAdded(added) };
  });
}
