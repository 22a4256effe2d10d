import type { Db } from '../../db/knex';
import type { ChargeResult } from './payment-gateway';

/** The test gateway's ledger, test_gateway_charges (test-gateway.ts): one row per merchant reference. */

/** The ledger's answer for the charge with merchant reference `reference`; undefined when none. */
export async function findCharge(db: Db, reference: string): Promise<ChargeResult | undefined> {
  return db('test_gateway_charges')
    .where({ merchant_reference: reference })
    .first('status', 'result_code as code', 'verbiage', 'gateway_reference as reference');
}

/** The refund reference of the charge refunded with `refundReference`; undefined when none. */
export async function findRefund(db: Db, refundReference: string): Promise<string | undefined> {
  const row = await db('test_gateway_charges').where({ refund_reference: refundReference }).first('refund_reference');
  return row?.refund_reference ?? undefined;
}

/** Whether an approved charge with merchant reference `reference` exists. */
export async function hasApprovedCharge(db: Db, reference: string): Promise<boolean> {
  return !!(await db('test_gateway_charges').where({ merchant_reference: reference, status: 'approved' }).first('merchant_reference'));
}

/**
 * Refunds the approved charge `reference` with `refundReference`, when not refunded yet or refunded with this
 * same reference (refunded_at kept from the first time). Returns whether it matched.
 */
export async function refundCharge(db: Db, reference: string, refundReference: string): Promise<boolean> {
  const n = await db('test_gateway_charges')
    .where({ merchant_reference: reference, status: 'approved' })
    .where((w) => w.whereNull('refund_reference').orWhere('refund_reference', refundReference))
    .update({ refunded_at: db.raw('coalesce(refunded_at, now())'), refund_reference: refundReference });
  return n > 0;
}

/** Inserts the charge `r` of `reference` unless the ledger has one already (first outcome kept). */
export async function insertChargeOnce(
  db: Db,
  c: { reference: string; amount: string; last4: string | null; result: ChargeResult },
): Promise<void> {
  await db.raw(
    `INSERT INTO test_gateway_charges (merchant_reference, amount, status, result_code, verbiage, gateway_reference, card_last4)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (merchant_reference) DO NOTHING`,
    [c.reference, c.amount, c.result.status, c.result.code, c.result.verbiage, c.result.reference, c.last4],
  );
}
