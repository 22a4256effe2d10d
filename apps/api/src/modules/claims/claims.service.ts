import { CLAIM_WINDOW_HOURS, PROBLEM_CODES, type Claim, type CreateClaimBody, type ResolveClaimBody } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { Logger } from '../../logger';
import type { Mailer, MailMessage } from '../../context';
import { ConflictError, NotFoundError, UnprocessableError } from '../../http/errors';
import { fromCents, toCents } from '../../lib/money';
import { auditActor, type Actor } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import { appendOrderEvent } from '../orders/orders.service';
import * as repo from './claims.repository';

/**
 * Claims after delivery (issue 28 §4, ARCHITECTURE §5 "The licensee's ordering week"): within 48 hours of an
 * order's completion its buyer reports damaged, leaking, wrong or short lines; the store resolves the claim
 * (credit, replace, rejected) with a reason. Each step is audited, mails the other side (the mail outbox, in the
 * same transaction) and appends `order.claim_opened` / `order.claim_resolved` to the order feed (and webhooks).
 * Photos are not taken (optional in the issue).
 */

/** What the claim routes use. */
export interface ClaimDeps {
  db: Db;
  mailer: Mailer;
  logger: Logger;
}

/** The claims of an order (the route checks the caller may read the order). */
export async function listClaims(db: Db, orderId: number): Promise<{ items: Claim[] }> {
  return { items: await views(db, await repo.findClaims(db, orderId)) };
}

async function views(db: Db, rows: repo.ClaimRow[]): Promise<Claim[]> {
  const lines = await repo.findLines(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    claimId: r.id,
    orderId: r.order_id,
    orderNumber: r.order_number,
    status: r.status,
    note: r.note,
    openedBy: r.opened_by_email,
    openedAt: new Date(r.created_at).toISOString(),
    outcome: r.outcome,
    resolutionNote: r.resolution_note,
    resolvedAt: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
    creditAmount: fromCents(toCents(r.credit_amount)),
    lines: lines
      .filter((l) => l.claim_id === r.id)
      .map((l) => ({
        id: l.id,
        itemCode: l.item_code,
        itemName: l.item_name,
        quantity: l.quantity,
        reason: l.reason,
        outcome: l.outcome,
        creditAmount: l.credit_amount === null ? null : fromCents(toCents(l.credit_amount)),
      })),
  }));
}

const claimOf = async (db: Db, claimId: number): Promise<Claim> => {
  const row = await repo.findClaim(db, claimId);
  if (!row) throw new NotFoundError('Claim not found');
  return (await views(db, [row]))[0];
};

/** Queues a mail inside a savepoint: a mail that cannot be queued is logged, never fails the claim. */
async function mail(trx: Db, deps: ClaimDeps, msg: MailMessage | null) {
  if (!msg) return;
  try {
    await trx.transaction((sp) => deps.mailer.enqueue(sp, msg));
  } catch (err) {
    deps.logger.error({ err, template: msg.template }, 'claim mail could not be queued');
  }
}

const splitEmails = (v: string | null) =>
  (v ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

const describe = (lines: { itemCode: string; quantity: number; reason: string }[]) =>
  lines.map((l) => `  ${l.quantity} × ${l.itemCode}: ${l.reason.replace('_', ' ')}`);

/**
 * POST /orders/{orderId}/claims by the order's buyer (the route checks): the order must be completed (else 409
 * `claim_order_not_completed`) no more than 48 hours ago (else 409 `claim_window_closed`); each line's code must
 * be on the order and its quantity at most the bottles ordered less those already claimed (else 422
 * `claim_quantity_exceeded`). Mails the store (its order-confirmation cc addresses), audits, appends
 * `order.claim_opened`. Returns the claim.
 */
export async function openClaim(deps: ClaimDeps, actor: Actor, orderId: number, body: CreateClaimBody, now = new Date()): Promise<Claim> {
  const claimId = await deps.db.transaction(async (trx) => {
    const order = await repo.findOrder(trx, orderId, true);
    if (!order) throw new NotFoundError('Order not found');
    if (order.status !== 'completed' || !order.completedAt) {
      throw new ConflictError(
        `Order ${order.orderNumber} is ${order.status}: a claim can be opened once it is completed.`,
        PROBLEM_CODES.claimOrderNotCompleted,
      );
    }
    const closes = new Date(order.completedAt).getTime() + CLAIM_WINDOW_HOURS * 3600_000;
    if (now.getTime() > closes) {
      throw new ConflictError(
        `Claims are accepted within ${CLAIM_WINDOW_HOURS} hours of delivery; this order was completed ${new Date(order.completedAt).toISOString()}.`,
        PROBLEM_CODES.claimWindowClosed,
      ).with({ windowClosedAt: new Date(closes).toISOString() });
    }
    const ordered = new Map((await repo.orderedLines(trx, orderId)).map((l) => [l.itemCode, l]));
    const claimed = await repo.claimedQuantities(trx, orderId);
    const asked = new Map<string, number>();
    for (const l of body.lines) asked.set(l.itemCode, (asked.get(l.itemCode) ?? 0) + l.quantity);
    for (const [code, qty] of asked) {
      const line = ordered.get(code);
      const left = (line?.quantity ?? 0) - (claimed.get(code) ?? 0);
      if (!line || qty > left) {
        throw new UnprocessableError(
          line
            ? `Item ${code}: ${qty} claimed, but only ${left} of the ${line.quantity} ordered can still be claimed.`
            : `Item ${code} is not on this order.`,
          PROBLEM_CODES.claimQuantityExceeded,
        ).with({ itemCode: code, claimable: Math.max(0, left) });
      }
    }
    const id = await repo.insertClaim(trx, { orderId, openedBy: actor.userId, note: body.note || null, lines: body.lines });
    await recordAudit(trx, auditActor(actor), {
      action: 'order.claim_opened',
      entityType: 'order',
      entityId: orderId,
      ip: actor.ip,
      details: { orderNumber: order.orderNumber, claimId: id, lines: body.lines, note: body.note ?? null },
    });
    const to = splitEmails(order.storeCcEmails);
    const text = [
      `A claim was opened on order ${order.orderNumber} by ${order.customerName}.`,
      '',
      ...describe(body.lines),
      ...(body.note ? ['', `Note: ${body.note}`] : []),
      '',
      'Resolve it from Store Orders.',
    ].join('\n');
    if (to.length) {
      await mail(trx, deps, {
        to: to[0],
        ...(to.length > 1 ? { cc: to.slice(1) } : {}),
        subject: `Claim on order ${order.orderNumber}`,
        text,
        template: 'order_claim_opened',
      });
    } else deps.logger.info({ orderId, claimId: id }, 'claim opened; the store has no order mail address to notify');
    await appendOrderEvent(trx, orderId, 'order.claim_opened');
    return id;
  });
  return claimOf(deps.db, claimId);
}

/**
 * POST /claims/{claimId}/resolve by store staff of the order's store (the route checks): every line gets the
 * outcome; a credit is each line's quantity × its unit price. A resolved claim → 409 `claim_resolved`. Mails
 * the buyer, audits, appends `order.claim_resolved`. Returns the claim.
 */
export async function resolveClaim(deps: ClaimDeps, actor: Actor, claimId: number, body: ResolveClaimBody): Promise<Claim> {
  await deps.db.transaction(async (trx) => {
    const claim = await repo.findClaim(trx, claimId, true);
    if (!claim) throw new NotFoundError('Claim not found');
    if (claim.status === 'resolved')
      throw new ConflictError(`This claim was resolved already (${claim.outcome}).`, PROBLEM_CODES.claimResolved);
    const order = await repo.findOrder(trx, claim.order_id);
    if (!order) throw new NotFoundError('Claim not found');
    const prices = new Map((await repo.orderedLines(trx, claim.order_id)).map((l) => [l.itemCode, toCents(l.unitPrice)]));
    const lines = await repo.findLines(trx, [claimId]);
    const credits = lines.map((l) => ({ id: l.id, cents: body.outcome === 'credit' ? (prices.get(l.item_code) ?? 0) * l.quantity : null }));
    const total = credits.reduce((s, c) => s + (c.cents ?? 0), 0);
    await repo.writeResolution(trx, claimId, {
      outcome: body.outcome,
      note: body.note || null,
      resolvedBy: actor.userId,
      credit: fromCents(total),
      lines: credits.map((c) => ({ id: c.id, credit: c.cents === null ? null : fromCents(c.cents) })),
    });
    await recordAudit(trx, auditActor(actor), {
      action: 'order.claim_resolved',
      entityType: 'order',
      entityId: claim.order_id,
      ip: actor.ip,
      details: { orderNumber: order.orderNumber, claimId, outcome: body.outcome, credit: fromCents(total), note: body.note ?? null },
    });
    const outcomeText = { credit: `credited $${fromCents(total)}`, replace: 'to be replaced', rejected: 'rejected' }[body.outcome];
    const text = [
      `Hello ${order.customerName},`,
      '',
      `Your claim on order ${order.orderNumber} was resolved: ${outcomeText}.`,
      ...(body.note ? ['', `Reason: ${body.note}`] : []),
      '',
      `Store: ${order.storeName}`,
    ].join('\n');
    if (order.customerEmail) {
      await mail(trx, deps, {
        to: order.customerEmail,
        subject: `Claim on order ${order.orderNumber} resolved`,
        text,
        template: 'order_claim_resolved',
      });
    }
    await appendOrderEvent(trx, claim.order_id, 'order.claim_resolved');
  });
  return claimOf(deps.db, claimId);
}

/** Claim credits of the outlet's orders resolved in [from, to) (for the monthly statement). */
export function creditsOf(db: Db, outletId: number, from: Date, to: Date) {
  return repo.findCredits(db, outletId, from, to);
}
