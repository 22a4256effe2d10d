import { ORDER_MESSAGES, PROBLEM_CODES, type OrderDetail } from '@portal/contracts';
import { BadGatewayError, ConflictError, NotFoundError } from '../../http/errors';
import { refunds } from '../../http/metrics';
import { recordAudit, type AuditActor } from '../audit/audit.service';
import * as payments from '../payments/payments.service';
import { loadDetail } from './order-detail';
import { appendOrderEvent } from './order-events';
import { orderStatusMail } from './order-mail';
import * as repo from './orders.repository';
import { gatewayOf, type SettleDeps } from './settlement';

/**
 * The order lifecycle after placement (ARCHITECTURE §10): reserved → ready → completed, and
 * reserved / ready → cancelled (a card-paid order is refunded through its gateway first; a refused refund
 * leaves it `cancel_pending`, retryable by cancelling again). Every transition is one transaction on the
 * locked order row that appends its `order_events` row, its audit entry and the buyer's mail.
 * Callers check the scope (the store must be the caller's or the API key's) before calling.
 */

export type LifecycleTarget = 'ready' | 'completed' | 'cancelled';

/** Who moves the order (audited) and from where. */
export interface TransitionBy {
  actor: AuditActor;
  ip?: string | null;
  via: 'store' | 'api_key';
}

const FROM: Record<LifecycleTarget, readonly string[]> = {
  ready: ['reserved'],
  completed: ['ready'],
  cancelled: ['reserved', 'ready', 'cancel_pending'],
};
const VERB: Record<LifecycleTarget, string> = { ready: 'marked ready', completed: 'completed', cancelled: 'cancelled' };

/** The 409 of a transition the current status does not allow, naming that status. */
function illegal(status: string, target: LifecycleTarget): ConflictError {
  if (target === 'ready') return new ConflictError(ORDER_MESSAGES.notReserved, PROBLEM_CODES.orderNotReserved); // the spec text verbatim
  return new ConflictError(`The order is ${status}: it cannot be ${VERB[target]}.`, PROBLEM_CODES.orderTransitionIllegal);
}

/**
 * Moves order `orderId` to `target` (reason: required for cancelled, ≤ 500 chars). Throws 404 when absent,
 * 409 `order_awaiting_payment` for an unpaid card order, 409 with the current status for an illegal
 * transition, 502 `refund_failed` when the gateway refused the refund (the order is then cancel_pending).
 * Returns the order's detail.
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
  if (!repo.PLACED_PAYMENT_STATUSES.includes(row.paymentStatus))
    throw new ConflictError(ORDER_MESSAGES.awaitingPayment, PROBLEM_CODES.orderAwaitingPayment);
  if (!FROM[target].includes(row.status)) throw illegal(row.status, target);
  let refundFailed: payments.RefundResult | undefined;
  if (target === 'cancelled' && row.paymentMethod === 'card' && row.paymentStatus === 'paid') {
    const paid = await payments.approvedPaymentOf(deps.db, orderId);
    const result = await gatewayOf(deps).refund({
      orderNumber: row.orderNumber,
      storeId: row.storeId,
      amount: row.totalAmount,
      reference: paid?.gatewayReference ?? null,
    });
    deps.logger[result.ok ? 'info' : 'warn'](
      { orderId, orderNumber: row.orderNumber, code: result.code },
      result.ok ? 'card order refunded' : 'card order refund refused',
    );
    refunds.inc({ outcome: result.ok ? 'refunded' : 'refused' });
    if (!result.ok) refundFailed = result;
  }
  const status = refundFailed ? 'cancel_pending' : target === 'cancelled' ? 'cancelled' : target;
  const detail = await deps.db.transaction(async (trx) => {
    const locked = await trx('orders').where({ id: orderId }).forUpdate().first('status');
    if (!locked || !FROM[target].includes(locked.status)) throw illegal(locked?.status ?? 'gone', target);
    if (status === 'cancel_pending' && locked.status === 'cancel_pending') return (await loadDetail(trx, orderId)).detail;
    const now = trx.fn.now();
    await trx('orders')
      .where({ id: orderId })
      .update({
        status,
        updated_at: now,
        ...(status === 'ready' ? { ready_at: now } : {}),
        ...(status === 'completed' ? { completed_at: now } : {}),
        ...(status === 'cancelled' || status === 'cancel_pending' ? { cancel_reason: reason ?? null, cancelled_at: now } : {}),
      });
    await recordAudit(trx, by.actor, {
      action: `order.${status}`,
      entityType: 'order',
      entityId: orderId,
      ip: by.ip ?? null,
      details: {
        orderNumber: row.orderNumber,
        from: locked.status,
        via: by.via,
        ...(reason ? { reason } : {}),
        ...(refundFailed ? { refundCode: refundFailed.code } : {}),
      },
    });
    const loaded = await loadDetail(trx, orderId);
    const d = loaded.detail;
    if (status !== 'cancel_pending') {
      try {
        await trx.transaction((sp) => deps.mailer.enqueue(sp, orderStatusMail(d, status, status === 'cancelled' ? reason : null)));
      } catch (err) {
        deps.logger.error({ err, orderId }, 'order status mail could not be queued');
      }
    }
    // Last: the event's lock is held until commit.
    await appendOrderEvent(
      trx,
      orderId,
      status === 'cancel_pending' ? 'order.cancel_pending' : (`order.${status}` as 'order.ready'),
      loaded,
    );
    return d;
  });
  if (refundFailed) {
    throw new BadGatewayError(
      `The payment could not be refunded (${refundFailed.verbiage || refundFailed.code}). The order awaits its refund (cancel_pending): cancel it again to retry.`,
      PROBLEM_CODES.refundFailed,
      'Refund Failed',
    );
  }
  return detail;
}
