import { PROBLEM_CODES, quantityRuleInputSchema } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { ApiKeyPrincipal } from '../access/api-keys';
import { ForbiddenError, NotFoundError, UnprocessableError } from '../../http/errors';
import { keyReaches } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import * as repo from './integrations.repository';

/**
 * The bulk upserts of API-key principals (issue 14 §3, issue 23 §2): a store's inventory and a board's catalog,
 * every row validated before anything is written, merge or replace (mass removal guarded), dry run, audited.
 */

/** One inventory row as sent: item code, bottles on hand, optional price (validated, informational). */
export interface InventoryRow {
  itemCode?: unknown;
  onHand?: unknown;
  price?: unknown;
}
/** A row error: the row (from 1), the field and why. */
export interface RowError {
  row: number;
  field: string;
  message: string;
  path: string;
}
/** How a bulk upsert runs: merge or replace, dry run, and whether replace may remove more than half. */
export interface UpsertOptions {
  mode: 'merge' | 'replace';
  dryRun: boolean;
  /** mode=replace may remove (or deactivate) more than half of what the store carries (the board sells). */
  allowMassRemoval?: boolean;
  ip: string | null;
}

/**
 * The guard of mode=replace (issue 23 §2): removing more than half of the `carried` rows needs
 * allowMassRemoval=true; otherwise 422 `mass_removal_refused` naming the count (`removing`, `carried`), the
 * dry run too, so a push that lost most of its rows never empties a store.
 */
function assertRemovalAllowed(removing: number, carried: number, opts: UpsertOptions, what: string): void {
  if (opts.allowMassRemoval || removing * 2 <= carried) return;
  throw new UnprocessableError(
    `This replace would remove ${removing} of the ${carried} ${what} (more than half)${opts.dryRun ? '' : ': nothing was written'}. Check the body; if the removal is intended, send allowMassRemoval=true.`,
    PROBLEM_CODES.massRemovalRefused,
  ).with({ removing, carried });
}

/** Writes the audit row of a bulk upsert that changed something: the key, the store or board, the mode and the counts. */
async function auditUpsert(
  trx: Db,
  key: ApiKeyPrincipal,
  action: 'inventory.upserted' | 'items.upserted',
  place: { type: 'store' | 'board'; id: number },
  opts: UpsertOptions,
  counts: Pick<UpsertResult, 'created' | 'updated' | 'unchanged' | 'removed'>,
): Promise<void> {
  await recordAudit(
    trx,
    { apiKeyId: key.apiKeyId },
    { action, entityType: place.type, entityId: place.id, ip: opts.ip, details: { mode: opts.mode, ...counts } },
  );
}

export interface UpsertResult {
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  dryRun: boolean;
  errors: RowError[];
}

/**
 * PUT /integrations/stores/{warehouseId}/inventory: validates every row first (422 rows_invalid with every row's
 * `{ row, field, message }`, nothing written), then in one transaction upserts on_hand by item code
 * (mode=replace also removes the store's items not sent; more than half of them only with
 * allowMassRemoval: 422 mass_removal_refused otherwise). A re-sent body answers all unchanged.
 * dryRun answers the counts without writing. A store outside the key's reach → 404. Audited.
 */
export async function upsertInventory(
  db: Db,
  key: ApiKeyPrincipal,
  storeId: number,
  rows: InventoryRow[],
  opts: UpsertOptions,
): Promise<UpsertResult> {
  const boardId = await repo.findStoreBoardId(db, storeId);
  if (boardId === undefined || !keyReaches(key, { id: storeId, boardId })) throw new NotFoundError('Store not found');
  const errors: RowError[] = [];
  const err = (row: number, field: string, message: string) => errors.push({ row, field, message, path: `${row}.${field}` });
  const codes: string[] = [];
  const seen = new Map<string, number>();
  rows.forEach((r, i) => {
    const n = i + 1;
    if (!r || typeof r !== 'object') {
      err(n, 'row', 'Each row must be an object');
      return;
    }
    if (typeof r.itemCode !== 'string' || !r.itemCode.trim()) err(n, 'itemCode', 'Item code is required');
    else if (seen.has(r.itemCode.trim())) err(n, 'itemCode', `Item code repeats row ${seen.get(r.itemCode.trim())}`);
    else {
      seen.set(r.itemCode.trim(), n);
      codes.push(r.itemCode.trim());
    }
    if (r.onHand !== null && (typeof r.onHand !== 'number' || !Number.isInteger(r.onHand) || r.onHand < 0 || r.onHand > 2_000_000_000))
      err(n, 'onHand', 'On hand must be a whole number of 0 or more');
    if (r.price !== undefined && r.price !== null && !/^\d{1,10}(\.\d{1,2})?$/.test(String(r.price)))
      err(n, 'price', 'Price must be a non-negative amount with up to 2 decimals');
  });
  const items = await repo.itemIdsByCode(db, boardId, codes);
  rows.forEach((r, i) => {
    if (typeof r?.itemCode === 'string' && seen.get(r.itemCode.trim()) === i + 1 && !items.has(r.itemCode.trim()))
      err(i + 1, 'itemCode', `Unknown item code ${r.itemCode.trim()}`);
  });
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    throw new UnprocessableError(
      `${errors.length} row${errors.length === 1 ? '' : 's'} refused: nothing was written`,
      PROBLEM_CODES.rowsInvalid,
      errors,
    );
  }
  // Every row is valid here: an object with a known item code and a whole onHand (or null).
  const ids: number[] = [];
  const onHand: (number | null)[] = [];
  for (const r of rows) {
    const id = items.get(String(r.itemCode).trim());
    if (id === undefined) continue;
    ids.push(id);
    onHand.push(typeof r.onHand === 'number' ? r.onHand : null);
  }
  return db.transaction(async (trx) => {
    const current = await repo.onHandByItem(trx, storeId, ids);
    let created = 0;
    let updated = 0;
    let unchanged = 0;
    const changedIds: number[] = [];
    const changedOnHand: (number | null)[] = [];
    ids.forEach((id, i) => {
      if (!current.has(id)) created++;
      else if (current.get(id) === onHand[i]) {
        unchanged++;
        return;
      } else updated++;
      changedIds.push(id);
      changedOnHand.push(onHand[i]);
    });
    let removed = 0;
    if (opts.mode === 'replace') {
      const counts = await repo.countInventoryRemoval(trx, storeId, ids);
      assertRemovalAllowed(counts.removing, counts.carried, opts, `items store ${storeId} carries`);
      removed = opts.dryRun ? counts.removing : await repo.removeInventoryExcept(trx, storeId, ids);
    }
    if (!opts.dryRun && changedIds.length) await repo.upsertOnHand(trx, storeId, changedIds, changedOnHand);
    if (!opts.dryRun && (changedIds.length || removed)) {
      await auditUpsert(trx, key, 'inventory.upserted', { type: 'store', id: storeId }, opts, { created, updated, unchanged, removed });
    }
    return { created, updated, unchanged, removed, dryRun: opts.dryRun, errors: [] };
  });
}

type Rule = { min: number; max: number | null; increment: number };
const sameQuantityRule = (a: Rule | null, b: Rule) =>
  (a ?? { min: 1, max: null, increment: 1 }).min === b.min &&
  (a ?? { min: 1, max: null, increment: 1 }).max === b.max &&
  (a ?? { min: 1, max: null, increment: 1 }).increment === b.increment;

/** Only a board's API key changes its catalog: a store's key → 403. */
export function assertCatalogKey(key: ApiKeyPrincipal): asserts key is ApiKeyPrincipal & { boardId: number } {
  if (!key.boardId) throw new ForbiddenError("Only a board's API key may change its catalog.");
}

/** One catalog row as sent (db:import's products.csv names in CSV): item code, name, bottle retail, category, pack, active. */
export interface ItemRow {
  itemCode?: unknown;
  name?: unknown;
  retail?: unknown;
  category?: unknown;
  bottlesPerCase?: unknown;
  active?: unknown;
  /** { min, max, increment } or null (none); left out: the item's rule stays (issue 27; JSON bodies). */
  quantityRule?: unknown;
}

/**
 * PUT /integrations/items: upserts the board's catalog by item code (a board key with catalog:write; a
 * store key → 403). Same rules as the inventory upsert: every row validated first (422 rows_invalid with
 * `{ row, field, message }`, nothing written), dryRun, a re-sent body answers all unchanged; mode=replace
 * deactivates the board's items not sent (counted as removed; more than half of them only with
 * allowMassRemoval, else 422 mass_removal_refused). Audited.
 */
export async function upsertItems(db: Db, key: ApiKeyPrincipal, rows: ItemRow[], opts: UpsertOptions): Promise<UpsertResult> {
  assertCatalogKey(key);
  const errors: RowError[] = [];
  const err = (row: number, field: string, message: string) => errors.push({ row, field, message, path: `${row}.${field}` });
  const seen = new Map<string, number>();
  const clean: repo.CatalogItem[] = [];
  rows.forEach((r, i) => {
    const n = i + 1;
    if (!r || typeof r !== 'object') {
      err(n, 'row', 'Each row must be an object');
      return;
    }
    const code = typeof r.itemCode === 'string' || typeof r.itemCode === 'number' ? String(r.itemCode).trim() : '';
    if (!code || code.length > 50) err(n, 'itemCode', 'Item code is required (at most 50 characters)');
    else if (seen.has(code)) err(n, 'itemCode', `Item code repeats row ${seen.get(code)}`);
    else seen.set(code, n);
    const name = typeof r.name === 'string' ? r.name.trim() : '';
    if (!name || name.length > 300) err(n, 'name', 'Name is required (at most 300 characters)');
    const retail = String(r.retail ?? '').replace(/^\$/, '');
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(retail)) err(n, 'retail', 'Retail must be a non-negative amount with up to 2 decimals');
    const pack = r.bottlesPerCase === undefined || r.bottlesPerCase === null || r.bottlesPerCase === '' ? null : Number(r.bottlesPerCase);
    if (pack !== null && (!Number.isInteger(pack) || pack <= 0))
      err(n, 'bottlesPerCase', 'Bottles per case must be a whole number above 0');
    const category = typeof r.category === 'string' && r.category.trim() ? r.category.trim().slice(0, 100) : null;
    const active = r.active === undefined ? true : r.active === true || r.active === 'true';
    const rule = r.quantityRule === undefined ? undefined : quantityRuleInputSchema.nullable().safeParse(r.quantityRule);
    if (rule && !rule.success) for (const issue of rule.error.issues) err(n, ['quantityRule', ...issue.path].join('.'), issue.message);
    clean.push({ code, name, retail: Number(retail).toFixed(2), category, pack, active, rule: rule?.success ? rule.data : undefined });
  });
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    throw new UnprocessableError(
      `${errors.length} row${errors.length === 1 ? '' : 's'} refused: nothing was written`,
      PROBLEM_CODES.rowsInvalid,
      errors,
    );
  }
  const boardId = key.boardId;
  return db.transaction(async (trx) => {
    const codes = clean.map((c) => c.code);
    const current = await repo.catalogByCode(trx, boardId, codes);
    let created = 0;
    let updated = 0;
    let unchanged = 0;
    const changed = clean.filter((c) => {
      const cur = current.get(c.code);
      if (!cur) {
        created++;
        return true;
      }
      const sameRule = c.rule === undefined || sameQuantityRule(cur.rule ?? null, c.rule ?? { min: 1, max: null, increment: 1 });
      if (
        sameRule &&
        cur.name === c.name &&
        cur.retail === c.retail &&
        cur.category === c.category &&
        cur.pack === c.pack &&
        cur.active === c.active
      ) {
        unchanged++;
        return false;
      }
      updated++;
      return true;
    });
    let removed = 0;
    if (opts.mode === 'replace') {
      const counts = await repo.countCatalogRemoval(trx, boardId, codes);
      assertRemovalAllowed(counts.removing, counts.carried, opts, `active items of board ${boardId}`);
      removed = opts.dryRun ? counts.removing : await repo.deactivateItemsExcept(trx, boardId, codes);
    }
    if (!opts.dryRun && changed.length) await repo.upsertCatalog(trx, boardId, changed);
    if (!opts.dryRun && (changed.length || removed)) {
      await auditUpsert(trx, key, 'items.upserted', { type: 'board', id: boardId }, opts, { created, updated, unchanged, removed });
    }
    return { created, updated, unchanged, removed, dryRun: opts.dryRun, errors: [] };
  });
}
