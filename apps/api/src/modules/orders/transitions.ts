import { ORDER_MESSAGES, PROBLEM_CODES, type OrderDetail, type OrderStatus, type PaymentStatus } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { ConflictError } from '../../http/errors';
import { recordAudit, type AuditActor } from '../audit/audit.service';
import { loadDetail } from './order-detail';
import { appendOrderEvent } from './order-events';
import { orderStatusMail } from './order-mail';
import * as writes from './order-writes.repository';
import type { SettleDeps } from './settlement';

/**
 * What every order transition shares (ARCHITECTURE §10): which statuses each target may come from, the
 * 409s of a refused transition, who moves the order, and the writes of one transition. Used by the
 * lifecycle (lifecycle.ts) and by refunds (refunds.ts).
 */

export type LifecycleTarget = 'ready' | 'completed' | 'cancelled';

/** The statuses each target may be reached from. */
export const FROM: Record<LifecycleTarget, readonly string[]> = {
  ready: ['reserved'],
  completed: ['ready'],
  cancelled: ['reserved', 'ready', 'cancel_pending'],
};
const VERB: Record<LifecycleTarget, string> = { ready: 'marked ready', completed: 'completed', cancelled: 'cancelled' };

/** The 409 of a transition the current status does not allow, naming that status. */
export function illegal(status: string, target: LifecycleTarget): ConflictError {
  if (target === 'ready') return new ConflictError(ORDER_MESSAGES.notReserved, PROBLEM_CODES.orderNotReserved); // the spec text verbatim
  return new ConflictError(`The order is ${status}: it cannot be ${VERB[target]}.`, PROBLEM_CODES.orderTransitionIllegal);
}

/** The 409 of an order whose refund is on its way to the gateway: nothing else moves it until it settles. */
export const refundInProgress = () =>
  new ConflictError(
    'A refund of this order is on its way to the payment gateway. Wait for its outcome before changing the order.',
    PROBLEM_CODES.refundInProgress,
  );

/** Who moves the order (audited) and from where: a store person, an API key, the reconciler. */
export interface TransitionBy {
  actor: AuditActor;
  ip?: string | null;
  via: 'store' | 'api_key' | 'reconciler';
}

/** One transition to write: the order's new status (and payment status), from which status, why. */
export interface TransitionWrite {
  orderId: number;
  orderNumber: string;
  from: OrderStatus;
  status: LifecycleTarget | 'cancel_pending';
  /** Set with the status when the transition settles money too (refunded, back to paid after a refused refund). */
  paymentStatus?: PaymentStatus;
  reason?: string | null;
  /** More audit details (the refund's reference or refusal code). */
  details?: Record<string, unknown>;
}

/**
 * Writes a transition inside the caller's transaction `trx`, on the order row the caller has locked
 * (ARCHITECTURE §10): the order's status (ready_at, completed_at, or cancel reason and time), its audit
 * entry `order.<status>`, the buyer's mail (not for cancel_pending) and, last (its lock is held until
 * commit), the `order_events` row: none when a cancel_pending order stays cancel_pending. Returns the
 * order's detail after the change.
 */
export async function recordTransition(
  trx: Db,
  deps: Pick<SettleDeps, 'mailer' | 'logger'>,
  by: TransitionBy,
  w: TransitionWrite,
): Promise<OrderDetail> {
  await writes.writeTransition(trx, w.orderId, w);
  await recordAudit(trx, by.actor, {
    action: `order.${w.status}`,
    entityType: 'order',
    entityId: w.orderId,
    ip: by.ip ?? null,
    details: { orderNumber: w.orderNumber, from: w.from, via: by.via, ...(w.reason ? { reason: w.reason } : {}), ...w.details },
  });
  const loaded = await loadDetail(trx, w.orderId);
  const d = loaded.detail;
  const mailed = w.status;
  if (mailed !== 'cancel_pending') {
    try {
      await trx.transaction((sp) => deps.mailer.enqueue(sp, orderStatusMail(d, mailed, mailed === 'cancelled' ? w.reason : null)));
    } catch (err) {
      deps.logger.error({ err, orderId: w.orderId }, 'order status mail could not be queued');
    }
  }
  if (w.status === 'cancel_pending' && w.from === 'cancel_pending') return d;
  // Last: the event's lock is held until commit.
  await appendOrderEvent(trx, w.orderId, w.status === 'cancel_pending' ? 'order.cancel_pending' : (`order.${w.status}` as const), loaded);
  return d;
}
