import { parse } from 'csv-parse/sync';
import {
  ORDERING_LIMITS,
  PROBLEM_CODES,
  type GuideSkipReason,
  type QuickOrderResult,
  type QuickOrderRowResult,
  type SplitCasePolicy,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { BadRequestError } from '../../http/errors';
import type { Actor } from '../access/access.service';
import { effectiveRule, isValidQuantity, nearestValid, roundUpToRule, ruleMessage, upperBound } from '../../lib/quantity-rules';
import * as lines from './cart-lines.repository';
import { cartView, lockCart, ownedCart, type CartFacts } from './carts.service';

/**
 * Quick order and guide fills (issue 27, ARCHITECTURE §5 "The licensee's ordering week"): many lines into a
 * cart with one query for all codes and one batched upsert, in one transaction.
 */

/** A row as sent: its number (from 1: JSON index + 1, or the CSV line number), the code and quantity as given. */
export interface QuickOrderRow {
  row: number;
  itemCode: unknown;
  quantity: unknown;
}

const CODE_HEADERS = ['item number', 'item code', 'itemcode', 'item', 'code', 'item #'];
const QTY_HEADERS = ['quantity', 'qty', 'bottles'];

/**
 * A pasted or uploaded CSV (`Item Number,Quantity`; a paste without the header is taken when its first line's
 * second cell is a number) → rows numbered by their line in the text (the header is line 1). 400
 * `csv_header_unknown` for a header without those columns, 400 `bulk_body_empty` without rows, 400 past 1,000 rows.
 */
export function csvQuickOrderRows(text: string): QuickOrderRow[] {
  let recs: { record: string[]; line: number }[];
  try {
    // Each record is tagged with its line number (the first cell) so a row answers with the line it came from.
    const tagged = parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      on_record: (rec: string[], ctx: { lines: number }) => [String(ctx.lines), ...rec],
    });
    recs = tagged.map(([line, ...record]) => ({ record, line: Number(line) }));
  } catch (err) {
    throw new BadRequestError(`The CSV cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!recs.length) throw new BadRequestError('The CSV is empty: send Item Number,Quantity rows.', undefined, PROBLEM_CODES.bulkBodyEmpty);
  const head = recs[0].record.map((c) => c.toLowerCase());
  let ci = head.findIndex((c) => CODE_HEADERS.includes(c));
  let qi = head.findIndex((c) => QTY_HEADERS.includes(c));
  let body = recs.slice(1);
  if (ci < 0 || qi < 0) {
    if (!/^\d+$/.test(recs[0].record[1] ?? '')) {
      throw new BadRequestError(
        `The CSV header is not one this route reads: got ${JSON.stringify(recs[0].record.slice(0, 4))}; expected Item Number,Quantity.`,
        [{ path: 'header', message: 'Expected the columns Item Number and Quantity' }],
        PROBLEM_CODES.csvHeaderUnknown,
      );
    }
    [ci, qi, body] = [0, 1, recs];
  }
  if (!body.length) throw new BadRequestError('The CSV holds no rows, only its header.', undefined, PROBLEM_CODES.bulkBodyEmpty);
  if (body.length > ORDERING_LIMITS.maxQuickOrderLines)
    throw new BadRequestError(`At most ${ORDERING_LIMITS.maxQuickOrderLines} lines at once`, [
      { path: 'lines', message: 'Too many lines' },
    ]);
  return body.map((r) => ({ row: r.line, itemCode: r.record[ci] ?? '', quantity: r.record[qi] ?? '' }));
}

const asQuantity = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\s*\d{1,6}\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= ORDERING_LIMITS.maxQuantity ? n : null;
};

/**
 * POST /carts/{cartId}/lines/bulk: checks every row on its own (unknown code, inactive, not carried at the
 * cart's store, a quantity that is not 1–999 or off the item's rule, or that would pass the rule's max with what
 * the cart holds) and adds every valid row to the cart in one transaction (one query for all codes, one batched
 * upsert; a code in the cart grows). NotFoundError when the cart is not the caller's.
 */
export async function addQuickOrderLines(db: Db, actor: Actor, cartId: number, rows: QuickOrderRow[]): Promise<QuickOrderResult> {
  return db.transaction(async (trx) => {
    const cart = await ownedCart(trx, actor, cartId);
    await lockCart(trx, cart.id);
    const codes = [...new Set(rows.map((r) => String(r.itemCode ?? '').trim()).filter(Boolean))];
    const byCode = new Map((await lines.findItemFacts(trx, cart.storeId, codes)).map((f) => [f.code, f]));
    const running = await lines.lineQuantities(trx, cart.id, codes);
    const writes = new Map<string, { itemId: number; code: string; quantity: number }>();
    const results = rows.map((r): QuickOrderRowResult => {
      const itemCode = String(r.itemCode ?? '').trim();
      const refuse = (code: QuickOrderRowResult['code'], message: string, extra: Partial<QuickOrderRowResult> = {}) => ({
        row: r.row,
        itemCode,
        ok: false,
        code,
        message,
        ...extra,
      });
      const f = byCode.get(itemCode);
      if (!f) return refuse('unknown_code', itemCode ? `No item has the code ${itemCode}` : 'Enter an item code');
      const q = asQuantity(r.quantity);
      if (q === null) return refuse('invalid_quantity', `Quantity must be a whole number from 1 to ${ORDERING_LIMITS.maxQuantity}`);
      if (!f.active) return refuse('inactive', `${f.name} is no longer sold`);
      if (!f.carried) return refuse('not_carried', `${f.name} is not carried at this store`);
      const rule = effectiveRule({ ...f, policy: cart.storeSplitCasePolicy });
      if (!isValidQuantity(rule, q))
        return refuse('quantity_rule', ruleMessage(itemCode, q, rule), { nearestValid: nearestValid(rule, q), rule });
      const had = running.get(itemCode) ?? 0;
      if (had + q > upperBound(rule)) {
        const room = Math.floor((upperBound(rule) - had) / rule.increment) * rule.increment;
        const message = `${ruleMessage(itemCode, had + q, rule)} The cart already holds ${had}.`;
        return refuse('quantity_rule', message, { nearestValid: room >= rule.min ? room : null, rule });
      }
      running.set(itemCode, had + q);
      const w = writes.get(itemCode);
      writes.set(itemCode, { itemId: f.itemId, code: itemCode, quantity: (w?.quantity ?? 0) + q });
      return { row: r.row, itemCode, ok: true, quantity: q, name: f.name };
    });
    await lines.upsertLines(trx, cart.id, [...writes.values()], 'add');
    return { results, addedCount: writes.size, cart: await cartView(trx, cart) };
  });
}

/** A line a guide asks for: `needed` bottles (par − on hand; ≤ 0 = nothing needed). */
export interface NeededLine {
  itemCode: string;
  needed: number;
}

/** What a fill put in the cart (the line's quantity now) and what it left out, with the reason. */
export interface FillResult {
  added: { itemCode: string; name: string; needed: number; quantity: number }[];
  skipped: { itemCode: string; name: string | null; reason: GuideSkipReason }[];
}

/**
 * Puts what each line needs, rounded UP to its item's rule, into `cart` (whose access the caller checked) in one
 * batched upsert: a line already in the cart keeps the larger of its quantity and the new one. Codes the store no
 * longer carries (or that are gone), inactive items and lines needing nothing are listed in `skipped`.
 */
export async function fillCart(trx: Db, cart: CartFacts, needs: NeededLine[]): Promise<FillResult> {
  const byCode = new Map(
    (
      await lines.findItemFacts(
        trx,
        cart.storeId,
        needs.map((n) => n.itemCode),
      )
    ).map((f) => [f.code, f]),
  );
  const policy: SplitCasePolicy = cart.storeSplitCasePolicy;
  const out: FillResult = { added: [], skipped: [] };
  const writes: { itemId: number; code: string; quantity: number; name: string; needed: number }[] = [];
  for (const n of needs) {
    const f = byCode.get(n.itemCode);
    const skip = (reason: GuideSkipReason) => out.skipped.push({ itemCode: n.itemCode, name: f?.name ?? null, reason });
    if (!f || !f.carried) skip('not_carried');
    else if (!f.active) skip('inactive');
    else if (n.needed <= 0) skip('nothing_needed');
    else {
      const q = roundUpToRule(effectiveRule({ ...f, policy }), n.needed);
      if (q === null) skip('not_carried');
      else writes.push({ itemId: f.itemId, code: f.code, quantity: q, name: f.name, needed: n.needed });
    }
  }
  const now = await lines.upsertLines(trx, cart.id, writes, 'atLeast');
  for (const w of writes) out.added.push({ itemCode: w.code, name: w.name, needed: w.needed, quantity: now.get(w.code) ?? w.quantity });
  return out;
}
