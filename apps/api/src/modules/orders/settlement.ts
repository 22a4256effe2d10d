import { PROBLEM_CODES, CHECKOUT_MESSAGES, ORDER_MESSAGES, type OrderDetail } from '@portal/contracts';
import type { Config } from '../../config';
import type { Mailer } from '../../context';
import type { Db } from '../../db/knex';
import { BadGatewayError, ConflictError, NotFoundError, PaymentDeclinedError } from '../../http/errors';
import { ordersPlaced, paymentsSettled, reconcilerSettlements } from '../../http/metrics';
import type { Logger } from '../../logger';
import { recordAudit, type AuditActor } from '../audit/audit.service';
import * as checkout from '../checkout-sessions/checkout-sessions.service';
import * as payments from '../payments/payments.service';
import { loadDetail } from './order-detail';
import { orderConfirmationMail } from './order-mail';
import { appendOrderEvent } from './order-events';
import * as repo from './orders.repository';
import * as writes from './order-writes.repository';

/**
 * Settlement of card orders (ARCHITECTURE §6): the one step that moves an order out of
 * payment_status `pending`, used by the request that charged, by a retry that takes over a dead request's
 * Idempotency-Key, by the reconciler and by an operator's "Check again". Each settlement is one
 * transaction on the locked order row, so two settlers never both act.
 */

/** What settling uses: the DB, config, the mail outbox, a logger and (optionally) a gateway. */
export interface SettleDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  /** Defaults to payments.gatewayFor(config, db). */
  gateway?: payments.PaymentGateway;
}

/**
 * What is known of a charge: the gateway's answer (approved / declined / error), `unknown` (no answer:
 * the money may or may not be taken) or `not_found` (a lookup found no charge with the order number).
 */
export type ChargeOutcome = {
  status: 'approved' | 'declined' | 'error' | 'unknown' | 'not_found';
  code: string;
  verbiage: string;
  reference: string | null;
};

/** The order's state after settling: paid (with its detail), failed, error, or still pending. */
export type Settled =
  { state: 'paid'; detail: OrderDetail } | { state: 'failed'; verbiage: string } | { state: 'error' } | { state: 'pending' };

/** Who settles, when it is not the request that charged: audited in the settlement's transaction. */
export interface SettledBy {
  actor: AuditActor;
  ip?: string | null;
  via: 'reconciler' | 'operator' | 'retry';
}

/** The text a buyer gets when the gateway has no charge for a pending order (settled as failed). */
export const NOT_CHARGED_MESSAGE = 'The payment was not completed and your card was not charged. Please try again.';

export const gatewayOf = (deps: SettleDeps) => deps.gateway ?? payments.gatewayFor(deps.config, deps.db);

/**
 * Settles one card order with what is known of its charge:
 * approved → paid, payment recorded, session used, cart emptied and checked out, confirmation queued;
 * declined → failed (and cancelled): the cart and session are free for another try;
 * error → error (the gateway refused to process it: nothing charged; the session is spent);
 * not_found → failed when the order is older than the settle-after age (the charge never reached the
 *   gateway), else left pending; unknown → left pending (payment_checked_at noted).
 * An order no longer pending answers its current state. Throws on DB failures (nothing half-written).
 */
export async function settle(deps: SettleDeps, orderId: number, outcome: ChargeOutcome, by?: SettledBy): Promise<Settled> {
  const { db, logger } = deps;
  let recorded: 'approved' | 'declined' | 'error' | undefined;
  const result = await db.transaction(async (trx): Promise<Settled> => {
    const o = await writes.lockForSettlement(trx, orderId, deps.config.paymentSettleAfterSeconds);
    if (!o) throw new NotFoundError(ORDER_MESSAGES.notFound);
    if (o.paymentStatus !== 'pending') return currentState(trx, deps, o.id, o.paymentStatus);
    const gateway = gatewayOf(deps).name;
    const record = async (status: 'approved' | 'declined' | 'error') => {
      await payments.recordOutcome(trx, o.id, gateway, o.totalAmount, { ...outcome, status });
      recorded = status;
      if (by) {
        await recordAudit(trx, by.actor, {
          action: 'order.payment_settled',
          entityType: 'order',
          entityId: o.id,
          ip: by.ip ?? null,
          details: { via: by.via, orderNumber: o.orderNumber, outcome: outcome.status, code: outcome.code, reference: outcome.reference },
        });
      }
    };
    switch (outcome.status) {
      case 'approved': {
        await writes.settlePayment(trx, o.id, 'paid');
        await record('approved');
        await checkout.completeCheckoutOf(trx, o.checkoutSessionId);
        return { state: 'paid', detail: await confirm(trx, deps, o.id) };
      }
      case 'declined':
        await writes.settlePayment(trx, o.id, 'failed');
        await record('declined');
        return { state: 'failed', verbiage: outcome.verbiage };
      case 'error':
        await writes.settlePayment(trx, o.id, 'error');
        await record('error');
        return { state: 'error' };
      case 'not_found':
        if (!o.old) {
          await writes.markPaymentChecked(trx, o.id);
          return { state: 'pending' };
        }
        await writes.settlePayment(trx, o.id, 'failed');
        await record('error');
        return { state: 'failed', verbiage: NOT_CHARGED_MESSAGE };
      default:
        await writes.markPaymentChecked(trx, o.id);
        return { state: 'pending' };
    }
  });
  // Counted once committed: the payment's outcome, and an approved card order is a placed order.
  if (recorded) {
    paymentsSettled.inc({ outcome: recorded });
    if (recorded === 'approved') ordersPlaced.inc({ payment_method: 'card' });
  }
  logger.info(
    { orderId, outcome: outcome.status, code: outcome.code, reference: outcome.reference, state: result.state },
    'card order settlement',
  );
  return result;
}

/**
 * Asks the gateway what became of the order's charge (lookup by the order number) and settles with the
 * answer; a gateway that cannot be asked leaves the order pending. For an order not pending, its state.
 */
export async function checkAndSettle(deps: SettleDeps, orderId: number, by?: SettledBy): Promise<Settled> {
  const row = await repo.findById(deps.db, orderId);
  if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
  if (row.paymentStatus !== 'pending') return currentState(deps.db, deps, orderId, row.paymentStatus);
  const found = await gatewayOf(deps).lookup({ orderNumber: row.orderNumber, storeId: row.storeId });
  return settle(deps, orderId, { ...found, status: found.status === 'unavailable' ? 'unknown' : found.status }, by);
}

/**
 * The HTTP answer of a settled order for the buyer: paid → the order; failed → 402 payment_declined with
 * the gateway's message; error → 502 payment_error; pending → 409 payment_being_confirmed.
 */
export function answer(s: Settled, orderId: number): OrderDetail {
  switch (s.state) {
    case 'paid':
      return s.detail;
    case 'failed':
      throw new PaymentDeclinedError(s.verbiage, orderId);
    case 'error':
      throw new BadGatewayError(CHECKOUT_MESSAGES.paymentError, PROBLEM_CODES.paymentError, 'Payment Failed');
    default:
      throw new ConflictError(CHECKOUT_MESSAGES.paymentBeingConfirmed, PROBLEM_CODES.paymentBeingConfirmed);
  }
}

/**
 * The reconciler's pass: every card order pending longer than the settle-after age is
 * looked up and settled, oldest first. One failing order does not stop the others. Returns the counts.
 */
export async function reconcilePending(deps: SettleDeps, limit = 200): Promise<Record<Settled['state'] | 'failedToCheck', number>> {
  const counts = { paid: 0, failed: 0, error: 0, pending: 0, failedToCheck: 0 };
  const ids = await repo.findPendingCardOrderIds(deps.db, deps.config.paymentSettleAfterSeconds, limit);
  for (const id of ids) {
    try {
      counts[(await checkAndSettle(deps, id, { actor: {}, via: 'reconciler' })).state]++;
    } catch (err) {
      counts.failedToCheck++;
      deps.logger.error({ err, orderId: id }, 'reconciler could not settle an order');
    }
  }
  if (ids.length) deps.logger.info({ ...counts, checked: ids.length }, 'payment reconciler pass');
  for (const [state, n] of Object.entries(counts))
    if (n) reconcilerSettlements.inc({ result: state === 'failedToCheck' ? 'unchecked' : state }, n);
  return counts;
}

/**
 * Confirmation of a paid or reserved order: the `order.created` event appended, the
 * confirmation mail queued (a mail failure only delays it); the detail. `known`: the order's loadDetail when
 * the caller has it (read here otherwise).
 */
export async function confirm(
  trx: Db,
  deps: Pick<SettleDeps, 'mailer' | 'logger'>,
  orderId: number,
  known?: Awaited<ReturnType<typeof loadDetail>>,
): Promise<OrderDetail> {
  // `known`: the order as its own write answered it (a new in-store order), else read here.
  const loaded = known ?? (await loadDetail(trx, orderId));
  const { row, detail } = loaded;
  try {
    await trx.transaction((sp) =>
      deps.mailer.enqueue(sp, { ...orderConfirmationMail(detail, row.storeCcEmails), attach: [{ kind: 'invoice', orderId }] }),
    );
  } catch (err) {
    deps.logger.error({ err, orderId }, 'order confirmation could not be queued');
  }
  // Last: the event's lock is held until commit.
  await appendOrderEvent(trx, orderId, 'order.created', loaded);
  return detail;
}

async function currentState(db: Db, _deps: SettleDeps, orderId: number, status: string): Promise<Settled> {
  if (status === 'paid' || status === 'not_required') return { state: 'paid', detail: (await loadDetail(db, orderId)).detail };
  if (status === 'error') return { state: 'error' };
  const pay = await payments.latestPaymentOf(db, orderId);
  return { state: 'failed', verbiage: pay?.status === 'declined' ? pay.verbiage || 'The card was declined.' : NOT_CHARGED_MESSAGE };
}
