import type { z } from 'zod';
import { PERMISSIONS, type AdminItem, type AdminItemsQuery, type updateItemBodySchema } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { NotFoundError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { auditActor, whereInReach, type Actor } from '../access/access.service';

/** Who reads the Items tab (spec 002 §6) and who edits items. */
export const ITEM_VIEW_CODES = [PERMISSIONS.itemsView, PERMISSIONS.itemView] as const;
export const ITEM_UPDATE_CODES = [PERMISSIONS.itemsUpdate, PERMISSIONS.itemUpdate] as const;

type UpdateItem = z.output<typeof updateItemBodySchema>;

const select = (db: Db) =>
  db('items as i')
    .join('boards as b', 'b.id', 'i.board_id')
    .leftJoin('bottle_sizes as bs', 'bs.id', 'i.bottle_size_id')
    .select(
      'i.id',
      'i.code',
      'i.name',
      'i.category',
      db.raw('i.retail::text AS retail'),
      'i.bottle_size_id as bottleSizeId',
      'bs.name as bottleSize',
      'i.bottles_per_case as bottlesPerCase',
      'i.active',
      'i.board_id as boardId',
      'b.board_number as boardNumber',
      db.raw('(SELECT count(*)::int FROM inventory inv WHERE inv.item_id = i.id) AS "storeCount"'),
    );

/**
 * The admin Items tab (spec 002 §2, §9: 20 per page): items of the catalogs the caller reaches (their boards',
 * and the boards of the stores they hold a grant at; ARCHITECTURE §11), searched by name or
 * code (case-insensitive substring), optionally only active ("available online") or inactive ones.
 */
export async function listItems(db: Db, actor: Actor, q: AdminItemsQuery) {
  const base = whereInReach(db, actor, ITEM_VIEW_CODES, 'catalog', db('items as i'), 'i.board_id');
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => {
      w.whereILike('i.name', like).orWhereILike('i.code', like);
    });
  }
  if (q.active !== undefined) base.where('i.active', q.active);
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const ids = base.clone().select('i.id');
  const items: AdminItem[] = await select(db)
    .whereIn('i.id', ids)
    .orderBy('i.name')
    .orderBy('i.code')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return { items, page: q.page, pageSize: q.pageSize, total: Number(n) };
}

/** One item of a catalog the caller reaches; 404 otherwise. */
export async function getItem(db: Db, actor: Actor, id: number): Promise<AdminItem> {
  const row = await whereInReach(db, actor, ITEM_VIEW_CODES, 'catalog', select(db).where('i.id', id), 'i.board_id').first();
  if (!row) throw new NotFoundError('Item not found');
  return row;
}

/**
 * Edits an item's name, category, retail price (≥ 0, 2 decimals) or active flag ('available online').
 * Carts pick the new price up at checkout (they are priced through the carts service). Audited with the
 * old and new values; 404 outside the boards where the caller holds an update code (a board grant: an item is
 * its board's, whichever store offers it).
 */
export async function updateItem(db: Db, actor: Actor, id: number, body: UpdateItem): Promise<AdminItem> {
  await db.transaction(async (trx) => {
    const before = await whereInReach(trx, actor, ITEM_UPDATE_CODES, 'board', trx('items as i').where('i.id', id), 'i.board_id')
      .forUpdate()
      .first('i.id', 'i.name', 'i.category', db.raw('i.retail::text AS retail'), 'i.active');
    if (!before) throw new NotFoundError('Item not found');
    const patch: Record<string, unknown> = {};
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const set = (col: string, key: keyof typeof before, value: unknown) => {
      if (value === undefined || value === before[key]) return;
      patch[col] = value;
      changes[key as string] = { from: before[key], to: value };
    };
    set('name', 'name', body.name);
    set('category', 'category', body.category);
    set('retail', 'retail', body.retail);
    set('active', 'active', body.active);
    if (!Object.keys(patch).length) return;
    await trx('items')
      .where({ id })
      .update({ ...patch, updated_at: trx.fn.now() });
    await recordAudit(trx, auditActor(actor), {
      action: 'item.updated',
      entityType: 'item',
      entityId: id,
      ip: actor.ip,
      details: { changes },
    });
  });
  return getItem(db, actor, id);
}
