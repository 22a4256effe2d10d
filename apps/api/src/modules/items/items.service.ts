import type { z } from 'zod';
import { PERMISSIONS, parseSort, type AdminItem, type AdminItemsListQuery, type updateItemBodySchema } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { NotFoundError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { auditActor, reach, type Actor } from '../access/access.service';
import * as repo from './items.repository';
import type { ItemEditable } from './items.repository';

/** Who reads the Items tab (spec 002 §6) and who edits items. */
export const ITEM_VIEW_CODES = [PERMISSIONS.itemsView, PERMISSIONS.itemView] as const;
export const ITEM_UPDATE_CODES = [PERMISSIONS.itemsUpdate, PERMISSIONS.itemUpdate] as const;

type UpdateItem = z.output<typeof updateItemBodySchema>;

/**
 * The admin Items tab (spec 002 §2, §9: 20 per page): items of the catalogs the caller reaches (their boards',
 * and the boards of the stores they hold a grant at; ARCHITECTURE §11), searched by name or
 * code (case-insensitive substring), optionally only active ("available online") or inactive ones.
 */
export async function listItems(db: Db, actor: Actor, q: AdminItemsListQuery) {
  const { items, total } = await repo.findPage(db, {
    within: reach(db, actor, ITEM_VIEW_CODES, 'catalog'),
    search: q.search,
    active: q.active,
    category: q.category,
    bottleSizeMl: q.bottleSizeMl,
    sort: parseSort(q.sort, 'name'),
    page: q.page,
    pageSize: q.pageSize,
  });
  return { items, page: q.page, pageSize: q.pageSize, total };
}

/** One item of a catalog the caller reaches; 404 otherwise. */
export async function getItem(db: Db, actor: Actor, id: number): Promise<AdminItem> {
  const row = await repo.findItem(db, id, reach(db, actor, ITEM_VIEW_CODES, 'catalog'));
  if (!row) throw new NotFoundError('Item not found');
  return row;
}

/**
 * Edits an item's name, category, retail price (≥ 0, 2 decimals), active flag ('available online') or quantity
 * rule (`quantityRule` { min, max, increment } or null for none; issue 27).
 * Carts pick the new price up at checkout (they are priced through the carts service). Audited with the
 * old and new values; 404 outside the boards where the caller holds an update code (a board grant: an item is
 * its board's, whichever store offers it).
 */
export async function updateItem(db: Db, actor: Actor, id: number, body: UpdateItem): Promise<AdminItem> {
  await db.transaction(async (trx) => {
    const before = await repo.lockEditable(trx, id, reach(trx, actor, ITEM_UPDATE_CODES, 'board'));
    if (!before) throw new NotFoundError('Item not found');
    const patch: Partial<Omit<ItemEditable, 'id'>> = {};
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const set = <K extends keyof Omit<ItemEditable, 'id'>>(key: K, value: ItemEditable[K] | undefined) => {
      if (value === undefined || value === before[key]) return;
      patch[key] = value;
      changes[key] = { from: before[key], to: value };
    };
    set('name', body.name);
    set('category', body.category);
    set('retail', body.retail);
    set('active', body.active);
    if (body.quantityRule !== undefined) {
      // null removes the rule (issue 27): min 1, no max, increment 1.
      const rule = body.quantityRule ?? { min: 1, max: null, increment: 1 };
      set('min_order_quantity', rule.min);
      set('max_order_quantity', rule.max);
      set('order_increment', rule.increment);
    }
    if (!Object.keys(patch).length) return;
    await repo.updateItem(trx, id, patch);
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
