import { ORDER_MESSAGES, PROBLEM_CODES, type OrderDetail } from '@portal/contracts';
import { ConflictError, NotFoundError } from '../../http/errors';
import * as repo from './orders.repository';
import * as writes from './order-writes.repository';
import { cancelCardOrder } from './refunds';
import type { SettleDeps } from './settlement';
import { FROM, illegal, recordTransition, refundInProgress, type LifecycleTarget, type TransitionBy } from './transitions';

/**
 * The order lifecycle after placement (ARCHITECTURE §10): reserved → ready → completed, and
 * reserved / ready → cancelled. Every transition is one transaction on the locked order row that appends
 * its `order_events` row, its audit entry and the buyer's mail. Cancelling a paid card order refunds it
 * first, exactly once (refunds.ts): a refused refund leaves it `cancel_pending`, retried by cancelling again.
 * Callers check the scope (the store must be the caller's or the API key's) before calling.
 */

export type { LifecycleTarget, TransitionBy } from './transitions';

/**
 * Moves order `orderId` to `target` (reason: required for cancelled, ≤ 500 chars). Throws 404 when absent,
 * 409 `order_awaiting_payment` for an unpaid card order, 409 `refund_in_progress` while its refund is
 * unsettled, 409 with the current status for an illegal transition; cancelling a paid card order answers
 * as `cancelCardOrder` does (502 `refund_failed` / `refund_unconfirmed`). Returns the order's detail.
 */
export async function transition(
  deps: SettleDeps,
  orderId: number,
  target: LifecycleTarget,
  by: TransitionBy,
  reason?: string | null,
): Promise<OrderDetail> {
  const row = await repo.findById(deps.db, orderId);
  if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
  if (target === 'cancelled' && row.paymentMethod === 'card') return cancelCardOrder(deps, orderId, by, reason ?? null);
  return deps.db.transaction(async (trx) => {
    const o = await writes.lockForTransition(trx, orderId);
    if (!o) throw new NotFoundError(ORDER_MESSAGES.notFound);
    if (o.paymentStatus === 'refund_pending') throw refundInProgress();
    if (!repo.SETTLED_PAYMENT_STATUSES.includes(o.paymentStatus))
      throw new ConflictError(ORDER_MESSAGES.awaitingPayment, PROBLEM_CODES.orderAwaitingPayment);
    if (!FROM[target].includes(o.status)) throw illegal(o.status, target);
    return recordTransition(trx, deps, by, { orderId, orderNumber: o.orderNumber, from: o.status, status: target, reason });
  });
}
