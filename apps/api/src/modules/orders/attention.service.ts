import { ORDER_MESSAGES, PERMISSIONS, type AttentionList, type CheckPaymentResult } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { NotFoundError } from '../../http/errors';
import { can, reach, type Actor } from '../access/access.service';
import * as repo from './orders.repository';
import { NOT_CHARGED_MESSAGE, checkAndSettle, type SettleDeps } from './settlement';

/**
 * Store Orders "Needs attention": card orders whose payment is unsettled and orders in
 * `cancel_pending`, for the stores where an operator holds bcc.orders.store.manage (ARCHITECTURE §11), and
 * "Check again", which asks the gateway now and settles the order with its answer.
 */

/** The stores where the caller processes orders (bcc.orders.store.manage held there; null: every store). */
const storesOf = (db: Db, caller: Actor) => reach(db, caller, PERMISSIONS.ordersStoreManage, 'store');

/**
 * GET /orders/attention?storeId=: oldest first, with the merchant reference (order number), the gateway's
 * reference and the card's last 4 digits. A store out of the caller's reach → 404 'Store not found'.
 */
export async function listAttention(db: Db, caller: Actor, q: { storeId?: number }): Promise<AttentionList> {
  if (q.storeId !== undefined && !(await can(db, caller, PERMISSIONS.ordersStoreManage, { type: 'store', id: q.storeId })))
    throw new NotFoundError('Store not found');
  const rows = await repo.findAttention(db, storesOf(db, caller), q.storeId);
  return {
    items: rows.map((r) => ({
      id: r.id,
      orderNumber: r.orderNumber,
      // A refund on its way (refund_pending) is a cancellation awaiting its refund, whatever the status says yet.
      reason: r.status === 'cancel_pending' || r.paymentStatus === 'refund_pending' ? 'cancel_pending' : 'payment_unconfirmed',
      status: r.status,
      paymentStatus: r.paymentStatus,
      orderDate: new Date(r.orderDate).toISOString(),
      storeId: r.storeId,
      storeName: r.storeName,
      customerName: r.customerName,
      customerEmail: r.customerEmail,
      total: r.totalAmount,
      gateway: r.gateway,
      merchantReference: r.orderNumber,
      gatewayReference: r.gatewayReference,
      cardLast4: r.cardLast4,
      lastCheckedAt: r.paymentCheckedAt ? new Date(r.paymentCheckedAt).toISOString() : null,
    })),
  };
}

const MESSAGES = {
  paid: 'The gateway approved the charge: the order is paid and confirmed to the customer.',
  failed: NOT_CHARGED_MESSAGE.replace('your card was', 'the card was'),
  declined: 'The gateway declined the charge: the order failed and the cart is unlocked.',
  error: 'The gateway refused to process the charge: nothing was charged.',
  pending: 'The gateway could not confirm the charge yet. The order stays pending; try again later.',
} as const;

/**
 * POST /orders/{orderId}/check-payment ("Check again"): the order must be in the caller's reach (else
 * 404). A pending card order is looked up at the gateway by its order number and settled (audited as
 * `order.payment_settled` via operator); an order already settled answers its state.
 */
export async function checkPayment(
  deps: SettleDeps,
  caller: Actor & { email?: string },
  orderId: number,
  ip: string | null,
): Promise<CheckPaymentResult> {
  // The route's declared scope (`storeOrder`) checked bcc.orders.store.manage at the order's store.
  const row = await repo.findById(deps.db, orderId);
  if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
  const s = await checkAndSettle(deps, orderId, { actor: { userId: caller.userId, email: caller.email ?? null }, ip, via: 'operator' });
  const after = await repo.findById(deps.db, orderId);
  if (!after) throw new NotFoundError(ORDER_MESSAGES.notFound);
  const paymentStatus = after.paymentStatus;
  const outcome = s.state;
  const message = s.state === 'failed' ? (s.verbiage === NOT_CHARGED_MESSAGE ? MESSAGES.failed : MESSAGES.declined) : MESSAGES[s.state];
  deps.logger.info({ orderId, outcome }, 'operator checked a payment');
  return { orderId, paymentStatus, outcome, message };
}
