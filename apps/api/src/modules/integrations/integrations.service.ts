import { createHash, randomBytes } from 'node:crypto';
import { PERMISSIONS, PROBLEM_CODES, type OrderDetail } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { forgetApiKey, hashApiKey, type ApiKeyPrincipal } from '../../http/api-key-auth';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../../http/errors';
import { can, keyReaches, whereStoreOrBoardInReach, type Principal } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import { transition } from '../orders/lifecycle';
import { ORDER_EVENT_ITEM_JSON } from '../orders/order-events';
import { eventTexts, type FeedIndex } from './feed-index';
import { feedIdentityFor } from './feed-identity';
import { newestSeq } from './feed.repository';
import type { SettleDeps } from '../orders/settlement';

/**
 * Warehouse integrations (ARCHITECTURE §10, issue 14 §§2–4): API keys managed by administrators, the
 * bulk inventory upsert, the order event feed and order status updates by API-key principals.
 */

/**
 * Who manages API keys and webhooks (ARCHITECTURE §10, §11): at the stores and boards where they hold one of
 * these codes — a store grant reaches that store's keys only, never another store's nor its board's.
 */
export const INTEGRATION_ADMIN_CODES = [PERMISSIONS.storesAdmin, PERMISSIONS.boardsManage, PERMISSIONS.usersSuperAdmin] as const;

/** Checks that `storeId` / `boardId` is a place where the administrator holds one of the codes (404 otherwise). */
export async function assertScope(db: Db, a: Principal, s: { storeId?: number | null; boardId?: number | null }): Promise<void> {
  if (s.storeId != null) {
    const exists = await db('stores').where({ id: s.storeId }).first('id');
    if (!exists || !(await can(db, a, INTEGRATION_ADMIN_CODES, { type: 'store', id: s.storeId })))
      throw new NotFoundError('Store not found');
  } else if (s.boardId != null) {
    const exists = await db('boards').where({ id: s.boardId }).first('id');
    if (!exists || !(await can(db, a, INTEGRATION_ADMIN_CODES, { type: 'board', id: s.boardId })))
      throw new NotFoundError('Board not found');
  } else {
    throw new BadRequestError('Choose a store or a board', [{ path: 'storeId', message: 'Choose a store or a board' }]);
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const keyView = (r: any) => ({
  id: r.id,
  name: r.name,
  prefix: r.key_prefix,
  storeId: r.store_id,
  boardId: r.board_id,
  scopes: r.scopes,
  sandbox: Boolean(r.sandbox),
  createdAt: new Date(r.created_at).toISOString(),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
  revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

/** GET /admin/api-keys: keys of the caller's stores and boards, newest first (prefix and last use; never the key). */
export async function listApiKeys(db: Db, a: Principal) {
  const rows = await whereStoreOrBoardInReach(db, a, INTEGRATION_ADMIN_CODES, db('api_keys')).orderBy('created_at', 'desc').limit(500);
  return { items: rows.map(keyView) };
}

/**
 * POST /admin/api-keys: a key `bcc_<8-char prefix>_<32 random bytes base64url>`, stored as SHA-256;
 * the whole key is in this answer only. Audited.
 */
export async function createApiKey(
  db: Db,
  a: Principal,
  input: { name: string; storeId?: number | null; boardId?: number | null; scopes: string[]; sandbox?: boolean },
  ip: string | null,
) {
  await assertScope(db, a, input);
  const prefix = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);
  const key = `bcc_${prefix}_${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (trx) => {
    const [row] = await trx('api_keys')
      .insert({
        name: input.name,
        key_prefix: prefix,
        key_hash: hashApiKey(key),
        store_id: input.storeId ?? null,
        board_id: input.storeId ? null : (input.boardId ?? null),
        scopes: input.scopes,
        sandbox: input.sandbox ?? false,
        created_by: a.userId,
      })
      .returning('*');
    await recordAudit(
      trx,
      { userId: a.userId },
      {
        action: 'api_key.created',
        entityType: 'api_key',
        entityId: row.id,
        ip,
        details: { name: input.name, prefix, scopes: input.scopes, storeId: row.store_id, boardId: row.board_id, sandbox: row.sandbox },
      },
    );
    return { ...keyView(row), key };
  });
}

/** DELETE /admin/api-keys/{id}: revoked at once (404 outside the caller's reach). Audited. */
export async function revokeApiKey(db: Db, a: Principal, id: string, ip: string | null): Promise<void> {
  const row = await whereStoreOrBoardInReach(db, a, INTEGRATION_ADMIN_CODES, db('api_keys').where({ id })).first();
  if (!row) throw new NotFoundError('API key not found');
  await db.transaction(async (trx) => {
    await trx('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    await recordAudit(
      trx,
      { userId: a.userId },
      { action: 'api_key.revoked', entityType: 'api_key', entityId: id, ip, details: { prefix: row.key_prefix } },
    );
  });
  // This process refuses the key from now on; the others hear it from the api_keys trigger.
  forgetApiKey(row.key_hash);
}

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
  const store = await db('stores').where({ id: storeId }).first('board_id');
  if (!store || !keyReaches(key, { id: storeId, boardId: store.board_id })) throw new NotFoundError('Store not found');
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
  const items = new Map<string, number>();
  for (let i = 0; i < codes.length; i += 10_000) {
    const found: { id: number; code: string }[] = await db('items')
      .where({ board_id: store.board_id })
      .whereIn('code', codes.slice(i, i + 10_000))
      .select('id', 'code');
    for (const f of found) items.set(f.code, f.id);
  }
  rows.forEach((r, i) => {
    if (typeof r?.itemCode === 'string' && seen.get(r.itemCode.trim()) === i + 1 && !items.has(r.itemCode.trim()))
      err(i + 1, 'itemCode', `Unknown item code ${r.itemCode.trim()}`);
  });
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    throw new UnprocessableError(
      `${errors.length} row${errors.length === 1 ? '' : 's'} refused: nothing was written`,
      PROBLEM_CODES.rowsInvalid,
      errors as never,
    );
  }
  const ids = rows.map((r) => items.get(String(r.itemCode).trim())!);
  const onHand = rows.map((r) => r.onHand as number | null);
  return db.transaction(async (trx) => {
    const current = new Map<number, number | null>();
    for (let i = 0; i < ids.length; i += 10_000) {
      const got: { item_id: number; on_hand: number | null }[] = await trx('inventory')
        .where({ store_id: storeId })
        .whereIn('item_id', ids.slice(i, i + 10_000))
        .select('item_id', 'on_hand');
      for (const g of got) current.set(g.item_id, g.on_hand);
    }
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
      const q = trx('inventory')
        .where({ store_id: storeId })
        .whereRaw('NOT (item_id = ANY(?::int[]))', [ids] as never);
      const [counts] = await trx('inventory')
        .where({ store_id: storeId })
        .select<{ carried: number; removing: number }[]>(
          trx.raw('count(*)::int AS carried'),
          trx.raw('(count(*) FILTER (WHERE NOT (item_id = ANY(?::int[]))))::int AS removing', [ids] as never),
        );
      assertRemovalAllowed(counts.removing, counts.carried, opts, `items store ${storeId} carries`);
      removed = opts.dryRun ? counts.removing : await q.del();
    }
    if (!opts.dryRun && changedIds.length) {
      await trx.raw(
        `INSERT INTO inventory (store_id, item_id, on_hand, updated_at) SELECT ?, u.id, u.on_hand, now() FROM unnest(?::int[], ?::int[]) AS u(id, on_hand)
         ON CONFLICT (store_id, item_id) DO UPDATE SET on_hand = EXCLUDED.on_hand, updated_at = now()`,
        [storeId, changedIds, changedOnHand] as never,
      );
    }
    if (!opts.dryRun && (changedIds.length || removed)) {
      await recordAudit(
        trx,
        { apiKeyId: key.apiKeyId },
        {
          action: 'inventory.upserted',
          entityType: 'store',
          entityId: storeId,
          ip: opts.ip,
          details: { mode: opts.mode, created, updated, unchanged, removed },
        },
      );
    }
    return { created, updated, unchanged, removed, dryRun: opts.dryRun, errors: [] };
  });
}

/**
 * Idempotency-Key for API-key writes: the first answer of (key, Idempotency-Key) is stored and replayed;
 * the same Idempotency-Key with another body → 422 idempotency_key_reused.
 */
export async function withKeyIdempotency<T>(
  db: Db,
  key: ApiKeyPrincipal,
  idem: string | undefined,
  body: unknown,
  run: () => Promise<T>,
): Promise<{ value: T; replayed: boolean }> {
  if (!idem) return { value: await run(), replayed: false };
  const hash = createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
  const prior = await db('integration_requests').where({ api_key_id: key.apiKeyId, key: idem }).first();
  if (prior) {
    if (prior.request_hash !== hash)
      throw new UnprocessableError('This Idempotency-Key was used for another request', PROBLEM_CODES.idempotencyKeyReused);
    return { value: prior.response_body as T, replayed: true };
  }
  const value = await run();
  await db('integration_requests')
    .insert({ api_key_id: key.apiKeyId, key: idem, request_hash: hash, status_code: 200, response_body: JSON.stringify(value) })
    .onConflict(['api_key_id', 'key'])
    .ignore();
  return { value, replayed: false };
}

/**
 * GET /integrations/order-events: events of the key's stores after `after` (seq), oldest first, at most
 * `limit`, as the answer's JSON bytes in order (`parts`, `length` bytes in all):
 * `{"items":[{ seq, type, occurredAt, order }],"nextAfter":N,"feedId":"…"}`. The page's seqs come from `index` when it
 * can answer (a page within its window; the tail while it has read in every announced event: no query),
 * otherwise from one index scan of `order_events` (gap-free: appends commit in seq order); each event's text
 * (with its list comma) from the cache or, on a miss, its stored `item_json`. A page of 100 events (≈ 120 KB)
 * is thus a list of stored bytes, never built, parsed, re-serialised or copied into one buffer. `nextAfter` resumes (the last seq, or `after` on an empty
 * page); an event deleted in between (its store removed) is left out.
 * `feedId` (feed-identity.ts) names the feed the seqs belong to; a cursor sent with another `feedId` → 409
 * `feed_reset` (the database was restored: seqs may be handed out again), and an empty page whose `after`
 * is past the newest seq ever drawn → 400 `cursor_ahead`; both answers carry `newestSeq` and `feedId`. The
 * newest seq is asked of the database only then, and only when `after` is past what the index holds.
 */
export async function orderEvents(
  db: Db,
  key: ApiKeyPrincipal,
  after: number,
  limit: number,
  index?: FeedIndex,
  cursorFeedId?: string,
): Promise<{ parts: Buffer[]; length: number; nextAfter: number; feedId: string }> {
  const feedId = await feedIdentityFor(db).feedId();
  if (cursorFeedId !== undefined && cursorFeedId !== feedId) {
    throw new ConflictError(
      `This cursor belongs to another feed (${cursorFeedId}): the database was restored or recreated, so seqs may have been handed out again. Read the feed again from after=0 (or from the orders you hold) with feedId ${feedId}.`,
      PROBLEM_CODES.feedReset,
    ).with({ feedId, newestSeq: await newestSeq(db) });
  }
  let seqs = index?.page(key, after, limit);
  if (!seqs) {
    const scope = key.storeId ? 'e.store_id = ?' : 'e.store_id IN (SELECT s.id FROM stores s WHERE s.board_id = ?)';
    const page = await db.raw(`SELECT e.seq::text FROM order_events e WHERE ${scope} AND e.seq > ? ORDER BY e.seq LIMIT ?`, [
      key.storeId ?? key.boardId,
      after,
      limit,
    ]);
    seqs = (page.rows as { seq: string }[]).map((r) => Number(r.seq));
    if (seqs.length) index?.sawSeq(seqs[seqs.length - 1]);
  }
  if (!seqs.length && after > (index?.knownHigh ?? 0)) {
    const newest = await newestSeq(db);
    if (after > newest)
      throw new BadRequestError(
        `The cursor after=${after} is past the newest event (seq ${newest}): no event will ever come after it. Resume from the last seq you processed (at most ${newest}).`,
        [{ path: 'after', message: `At most ${newest}` }],
        PROBLEM_CODES.cursorAhead,
      ).with({ newestSeq: newest, feedId });
  }
  // The texts in page order (cached, or read below), each as a list element after another (`,{…}`); an event
  // not found (deleted) stays undefined and is left out.
  const texts: (Buffer | undefined)[] = seqs.map((seq) => eventTexts.get(seq));
  const missing = seqs.filter((_seq, i) => !texts[i]);
  if (missing.length) {
    const { rows } = await db.raw(
      `SELECT e.seq, ',' || coalesce(e.item_json, ${ORDER_EVENT_ITEM_JSON}) AS item FROM order_events e WHERE e.seq = ANY(?)`,
      [missing],
    );
    const read = new Map<number, Buffer>();
    for (const r of rows as { seq: string; item: string }[]) {
      const text = Buffer.from(r.item, 'utf8');
      read.set(Number(r.seq), text);
      eventTexts.set(Number(r.seq), text);
    }
    seqs.forEach((seq, i) => (texts[i] ??= read.get(seq)));
  }
  // `{"items":[`, the first event without its comma, one part per further event, the close.
  const parts: Buffer[] = [];
  let length = 0;
  for (const text of texts) {
    if (!text) continue;
    if (length) parts.push(text);
    else parts.push(OPEN, text.subarray(1));
    length += length ? text.length : OPEN.length + text.length - 1;
  }
  const nextAfter = seqs.length ? seqs[seqs.length - 1] : after;
  const tail = `"nextAfter":${nextAfter},"feedId":"${feedId}"}`;
  const close = Buffer.from(length ? `],${tail}` : `{"items":[],${tail}`);
  parts.push(close);
  return { parts, length: length + close.length, nextAfter, feedId };
}
const OPEN = Buffer.from('{"items":[');

/** POST /integrations/orders/{orderNumber}/status: ready / completed / cancelled like the Store Orders buttons (404 outside the key's stores). */
export async function setOrderStatus(
  deps: SettleDeps,
  key: ApiKeyPrincipal,
  orderNumber: string,
  status: 'ready' | 'completed' | 'cancelled',
  reason: string | undefined,
  ip: string | null,
): Promise<OrderDetail> {
  const row = await deps
    .db('orders as o')
    .join('stores as s', 's.id', 'o.store_id')
    .where('o.order_number', orderNumber)
    .first('o.id', 'o.store_id', 's.board_id');
  if (!row || !keyReaches(key, { id: row.store_id, boardId: row.board_id })) throw new NotFoundError('Order not found');
  if (status === 'cancelled' && !reason) throw new BadRequestError('Enter a reason', [{ path: 'reason', message: 'Enter a reason' }]);
  return transition(deps, row.id, status, { actor: { apiKeyId: key.apiKeyId }, ip, via: 'api_key' }, reason ?? null);
}

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
  const clean: { code: string; name: string; retail: string; category: string | null; pack: number | null; active: boolean }[] = [];
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
    clean.push({ code, name, retail: Number(retail).toFixed(2), category, pack, active });
  });
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    throw new UnprocessableError(
      `${errors.length} row${errors.length === 1 ? '' : 's'} refused: nothing was written`,
      PROBLEM_CODES.rowsInvalid,
      errors as never,
    );
  }
  const boardId = key.boardId;
  return db.transaction(async (trx) => {
    const current = new Map<string, { name: string; retail: string; category: string | null; pack: number | null; active: boolean }>();
    const codes = clean.map((c) => c.code);
    for (let i = 0; i < codes.length; i += 10_000) {
      const got = await trx('items')
        .where({ board_id: boardId })
        .whereIn('code', codes.slice(i, i + 10_000))
        .select('code', 'name', 'retail', 'category', 'bottles_per_case as pack', 'active');
      for (const g of got) current.set(g.code, { ...g, retail: Number(g.retail).toFixed(2) });
    }
    let created = 0;
    let updated = 0;
    let unchanged = 0;
    const changed = clean.filter((c) => {
      const cur = current.get(c.code);
      if (!cur) {
        created++;
        return true;
      }
      if (cur.name === c.name && cur.retail === c.retail && cur.category === c.category && cur.pack === c.pack && cur.active === c.active) {
        unchanged++;
        return false;
      }
      updated++;
      return true;
    });
    let removed = 0;
    if (opts.mode === 'replace') {
      const q = trx('items')
        .where({ board_id: boardId, active: true })
        .whereRaw('NOT (code = ANY(?::text[]))', [codes] as never);
      const [counts] = await trx('items')
        .where({ board_id: boardId, active: true })
        .select<{ carried: number; removing: number }[]>(
          trx.raw('count(*)::int AS carried'),
          trx.raw('(count(*) FILTER (WHERE NOT (code = ANY(?::text[]))))::int AS removing', [codes] as never),
        );
      assertRemovalAllowed(counts.removing, counts.carried, opts, `active items of board ${boardId}`);
      removed = opts.dryRun ? counts.removing : await q.update({ active: false, updated_at: trx.fn.now() });
    }
    if (!opts.dryRun && changed.length) {
      await trx.raw(
        `INSERT INTO items (board_id, code, name, retail, category, bottles_per_case, active)
         SELECT ?, u.code, u.name, u.retail, u.category, u.pack, u.active FROM unnest(?::text[], ?::text[], ?::numeric[], ?::text[], ?::int[], ?::bool[]) AS u(code, name, retail, category, pack, active)
         ON CONFLICT (board_id, code) DO UPDATE SET name = EXCLUDED.name, retail = EXCLUDED.retail, category = EXCLUDED.category,
           bottles_per_case = EXCLUDED.bottles_per_case, active = EXCLUDED.active, updated_at = now()`,
        [
          boardId,
          changed.map((c) => c.code),
          changed.map((c) => c.name),
          changed.map((c) => c.retail),
          changed.map((c) => c.category),
          changed.map((c) => c.pack),
          changed.map((c) => c.active),
        ] as never,
      );
    }
    if (!opts.dryRun && (changed.length || removed)) {
      await recordAudit(
        trx,
        { apiKeyId: key.apiKeyId },
        {
          action: 'items.upserted',
          entityType: 'board',
          entityId: boardId,
          ip: opts.ip,
          details: { mode: opts.mode, created, updated, unchanged, removed },
        },
      );
    }
    return { created, updated, unchanged, removed, dryRun: opts.dryRun, errors: [] };
  });
}
