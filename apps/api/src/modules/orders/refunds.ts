import { ORDER_MESSAGES, PROBLEM_CODES, type OrderDetail } from '@portal/contracts';
import { BadGatewayError, ConflictError, NotFoundError } from '../../http/errors';
import { refunds } from '../../http/metrics';
import * as payments from '../payments/payments.service';
import { loadDetail } from './order-detail';
import * as repo from './orders.repository';
import * as writes from './order-writes.repository';
import { gatewayOf, type SettleDeps } from './settlement';
import { FROM, illegal, recordTransition, refundInProgress, type TransitionBy } from './transitions';

/**
 * Refunds of cancelled card orders (ARCHITECTURE §6, §10; STYLE "lock the row, record the intent, call
 * out with an idempotent reference, record the outcome"): money leaves once, and is on record.
 *   1. Under the order's row lock: the refund row (`payments`, kind refund, pending, reference
 *      `<order number>-refund`) and `payment_status = refund_pending` are committed before the gateway is
 *      called, so a second cancel (a double click, a retry, another operator) sees the refund in flight
 *      and is refused (409 refund_in_progress) instead of sending another one.
 *   2. The gateway refunds with that reference, outside any transaction: the same reference never pays twice.
 *   3. Under the row lock again: approved → the refund row approved, the order cancelled and `refunded`;
 *      refused → the refund row declined / error, the order `cancel_pending` and `paid` again (the money is
 *      still taken), retried by cancelling again; no answer (timeout, crash, 5xx) → left refund_pending
 *      (shown as cancel_pending) for the reconciler, which asks the gateway by the refund's reference and
 *      settles it (`settleRefundByLookup`): never sent again.
 */

/** What is known of a refund: the gateway's answer, no answer (`unknown`), or a lookup that found none (`not_found`). */
export type RefundOutcome = {
  status: 'approved' | 'declined' | 'error' | 'unknown' | 'not_found';
  code: string;
  verbiage: string;
  reference: string | null;
};

/** Where a refund ended: refunded (cancelled), refused (cancel_pending, paid) or unconfirmed (still refund_pending). */
export type RefundSettled =
  | { state: 'refunded'; detail: OrderDetail }
  | { state: 'refused'; detail: OrderDetail; verbiage: string }
  | { state: 'unconfirmed'; detail: OrderDetail };

/** The text an operator gets for a refund whose sending never reached the gateway (the process died first). */
export const REFUND_NOT_SENT = 'The refund never reached the payment gateway';

/**
 * Cancels card order `orderId` with `reason`, refunding its charge once (steps above). Throws 404 when
 * absent, 409 `order_awaiting_payment` when it was never paid, 409 with the status when it cannot be
 * cancelled, 409 `refund_in_progress` while an earlier refund is on its way (an attempt older than
 * PAYMENT_SETTLE_AFTER_SECONDS is settled by lookup instead), 502 `refund_failed` (the order is
 * cancel_pending) or `refund_unconfirmed` (the gateway did not answer: the reconciler settles it).
 */
export async function cancelCardOrder(deps: SettleDeps, orderId: number, by: TransitionBy, reason: string | null): Promise<OrderDetail> {
  const gateway = gatewayOf(deps);
  const intent = await deps.db.transaction(async (trx) => {
    const o = await writes.lockForTransition(trx, orderId);
    if (!o) throw new NotFoundError(ORDER_MESSAGES.notFound);
    if (o.paymentStatus === 'refund_pending') return { inFlight: true as const };
    if (o.paymentStatus !== 'paid' && o.paymentStatus !== 'refunded')
      throw new ConflictError(ORDER_MESSAGES.awaitingPayment, PROBLEM_CODES.orderAwaitingPayment);
    if (!FROM.cancelled.includes(o.status) || o.paymentStatus === 'refunded') throw illegal(o.status, 'cancelled');
    const reference = payments.refundReferenceOf(o.orderNumber);
    await payments.recordRefundAttempt(trx, orderId, gateway.name, o.totalAmount, reference);
    await writes.markRefundPending(trx, orderId, reason);
    const charge = await payments.approvedPaymentOf(trx, orderId);
    return {
      inFlight: false as const,
      send: {
        orderNumber: o.orderNumber,
        refundReference: reference,
        chargeReference: charge?.gatewayReference ?? null,
        storeId: o.storeId,
        amount: o.totalAmount,
      },
    };
  });
  if (intent.inFlight) {
    const refund = await payments.refundOf(deps.db, orderId);
    const age = refund ? (Date.now() - new Date(refund.attemptedAt).getTime()) / 1000 : 0;
    if (age < deps.config.paymentSettleAfterSeconds) throw refundInProgress();
    return answer(await settleRefundByLookup(deps, orderId, by));
  }
  const result = await gateway.refund(intent.send);
  deps.logger[result.status === 'approved' ? 'info' : 'warn'](
    { orderId, orderNumber: intent.send.orderNumber, reference: intent.send.refundReference, status: result.status, code: result.code },
    'card order refund',
  );
  const outcome: RefundOutcome = payments.outcomeUnknown(result) ? { ...result, status: 'unknown' } : result;
  const settled = await settleRefund(deps, orderId, outcome, by);
  refunds.inc({ outcome: settled.state });
  return answer(settled);
}

/**
 * Records what is known of order `orderId`'s refund, under its row lock (step 3): approved → refunded and
 * cancelled; declined / error / not_found → the refund row refused, the order cancel_pending and paid;
 * unknown → left refund_pending, shown as cancel_pending. An order whose refund is settled already
 * answers its state (an approval that comes after a refusal was recorded is still recorded: the money
 * did go back). Throws on DB failures (nothing half-written).
 */
export async function settleRefund(deps: SettleDeps, orderId: number, outcome: RefundOutcome, by: TransitionBy): Promise<RefundSettled> {
  return deps.db.transaction(async (trx): Promise<RefundSettled> => {
    const o = await writes.lockForTransition(trx, orderId);
    if (!o) throw new NotFoundError(ORDER_MESSAGES.notFound);
    const refund = await payments.refundOf(trx, orderId);
    const lateApproval =
      outcome.status === 'approved' && o.paymentStatus === 'paid' && o.status === 'cancel_pending' && refund?.status !== 'approved';
    if (o.paymentStatus !== 'refund_pending' && !lateApproval) {
      const { detail } = await loadDetail(trx, orderId);
      if (o.paymentStatus === 'refunded') return { state: 'refunded', detail };
      return { state: 'refused', detail, verbiage: detail.payments?.find((p) => p.kind === 'refund')?.message ?? 'The refund was refused' };
    }
    const write = { orderId, orderNumber: o.orderNumber, from: o.status, reason: o.cancelReason };
    const details = { refundReference: refund?.merchantReference ?? null, refundCode: outcome.code };
    if (outcome.status === 'approved') {
      await payments.recordRefundOutcome(trx, orderId, { ...outcome, status: 'approved' });
      const detail = await recordTransition(trx, deps, by, { ...write, status: 'cancelled', paymentStatus: 'refunded', details });
      return { state: 'refunded', detail };
    }
    if (outcome.status === 'unknown') {
      // No answer: the refund may have been made. Nothing changes but what the store sees.
      const detail =
        o.status === 'cancel_pending'
          ? (await loadDetail(trx, orderId)).detail
          : await recordTransition(trx, deps, by, { ...write, status: 'cancel_pending', details: { ...details, unconfirmed: true } });
      return { state: 'unconfirmed', detail };
    }
    const refused = outcome.status === 'not_found' ? { ...outcome, status: 'error' as const, verbiage: REFUND_NOT_SENT } : outcome;
    await payments.recordRefundOutcome(trx, orderId, { ...refused, status: refused.status === 'declined' ? 'declined' : 'error' });
    const detail = await recordTransition(trx, deps, by, { ...write, status: 'cancel_pending', paymentStatus: 'paid', details });
    return { state: 'refused', detail, verbiage: refused.verbiage || refused.code };
  });
}

/**
 * Asks the gateway what became of order `orderId`'s refund (lookup by its reference `<order number>-refund`)
 * and settles it with the answer (a gateway that cannot be asked leaves it unconfirmed). Never sends a refund.
 */
export async function settleRefundByLookup(deps: SettleDeps, orderId: number, by: TransitionBy): Promise<RefundSettled> {
  const row = await repo.findById(deps.db, orderId);
  if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
  const found = await gatewayOf(deps).lookup({ orderNumber: payments.refundReferenceOf(row.orderNumber), storeId: row.storeId });
  const outcome: RefundOutcome = { ...found, status: found.status === 'unavailable' ? 'unknown' : found.status };
  deps.logger.info({ orderId, orderNumber: row.orderNumber, outcome: outcome.status, code: outcome.code }, 'refund looked up');
  return settleRefund(deps, orderId, outcome, by);
}

/**
 * The reconciler's refund pass: every order whose refund was sent longer than PAYMENT_SETTLE_AFTER_SECONDS
 * ago and is still unsettled is looked up and settled, oldest first. One failing order does not stop the
 * others. Returns the counts.
 */
export async function reconcileRefunds(deps: SettleDeps, limit = 200): Promise<Record<RefundSettled['state'] | 'failedToCheck', number>> {
  const counts = { refunded: 0, refused: 0, unconfirmed: 0, failedToCheck: 0 };
  const ids = await repo.findStaleRefundOrderIds(deps.db, deps.config.paymentSettleAfterSeconds, limit);
  for (const id of ids) {
    try {
      const { state } = await settleRefundByLookup(deps, id, { actor: {}, via: 'reconciler' });
      if (state !== 'unconfirmed') refunds.inc({ outcome: state });
      counts[state]++;
    } catch (err) {
      counts.failedToCheck++;
      deps.logger.error({ err, orderId: id }, 'reconciler could not settle a refund');
    }
  }
  if (ids.length) deps.logger.info({ ...counts, checked: ids.length }, 'refund reconciler pass');
  return counts;
}

/** The HTTP answer of a settled refund: refunded → the order; refused → 502 refund_failed; unconfirmed → 502 refund_unconfirmed. */
function answer(s: RefundSettled): OrderDetail {
  if (s.state === 'refunded') return s.detail;
  if (s.state === 'refused')
    throw new BadGatewayError(
      `The payment could not be refunded (${s.verbiage}). The order awaits its refund (cancel_pending): cancel it again to retry.`,
      PROBLEM_CODES.refundFailed,
      'Refund Failed',
    );
  throw new BadGatewayError(
    'The payment gateway did not confirm the refund. It is being checked with the gateway (never sent twice); the order is cancelled once the refund is confirmed.',
    PROBLEM_CODES.refundUnconfirmed,
    'Refund Unconfirmed',
  );
}
