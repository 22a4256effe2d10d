import type { SuggestedLine, SuggestedOrder } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { casePack, effectiveRule, roundUpToRule } from '../../lib/quantity-rules';
import type { Actor } from '../access/access.service';
import * as repo from './suggestions.repository';

/** Most lines a suggestion lists. */
export const MAX_SUGGESTED_LINES = 60;
/** Weeks of stock a suggestion covers. */
export const COVER_WEEKS = 1;

/** "6", "2.5", "0.3": a weekly average as people read it (whole from 10 up, else one decimal). */
export function formatAverage(avg: number): string {
  return avg >= 10 ? String(Math.round(avg)) : String(Math.round(avg * 10) / 10);
}

function line(r: repo.HistoryRow, weeklyAverage: number, basis: string): SuggestedLine | null {
  const rule = effectiveRule(r);
  const suggested = roundUpToRule(rule, Math.ceil(weeklyAverage * COVER_WEEKS));
  if (suggested === null) return null;
  return {
    itemCode: r.itemCode,
    name: r.name,
    suggested,
    basis,
    weeklyAverage: Math.round(weeklyAverage * 100) / 100,
    stock: r.stock,
    bottlesPerCase: casePack(r.bottlesPerCase),
    quantityRule: rule,
  };
}

/**
 * GET /outlets/{outletId}/stores/{storeId}/suggested-order?weeks=N (issue 27). The formula, per item the store
 * carries now:
 *   weeklyAverage = bottles the outlet ordered from the store in the last N weeks (orders not cancelled) ÷ N;
 *   suggested     = ⌈weeklyAverage × 1 week of cover⌉ rounded UP to the item's quantity rule at the store;
 *   basis         = "≈ 6 a week over 8 weeks".
 * An outlet with no orders there in that window gets the store's real history instead (store_item_history, the
 * Iowa store_items data: bottles sold in the year ÷ its weeks), basis "store average ≈ 6 a week (2022)". At most
 * 60 lines, the biggest sellers first; `source` says which basis was used (none: neither has lines).
 */
export async function suggestedOrder(
  db: Db,
  _actor: Actor,
  q: { outletId: number; storeId: number; weeks: number },
): Promise<SuggestedOrder> {
  const base = { outletId: q.outletId, storeId: q.storeId, weeks: q.weeks };
  const own = await repo.ownHistory(db, q.outletId, q.storeId, q.weeks, MAX_SUGGESTED_LINES);
  if (own.length) {
    const lines = own.map((r) => {
      const avg = Number(r.amount) / q.weeks;
      return line(r, avg, `≈ ${formatAverage(avg)} a week over ${q.weeks} week${q.weeks === 1 ? '' : 's'}`);
    });
    return { ...base, source: 'own_history', lines: lines.filter((l): l is SuggestedLine => l !== null) };
  }
  const store = await repo.storeHistory(db, q.storeId, MAX_SUGGESTED_LINES);
  const lines = store.map((r) => {
    const avg = Number(r.amount);
    return line(r, avg, `store average ≈ ${formatAverage(avg)} a week (${r.year ?? 'history'})`);
  });
  const kept = lines.filter((l): l is SuggestedLine => l !== null);
  return { ...base, source: kept.length ? 'store_history' : 'none', lines: kept };
}
