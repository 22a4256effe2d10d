import type { z } from 'zod';
import {
  PERMISSIONS,
  ADMIN_ORG_MESSAGES,
  type AdminStore,
  ADMIN_SELECT_ALL_MAX,
  parseSort,
  type AdminStoresListQuery,
  type createStoreBodySchema,
  type updateStoreBodySchema,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { uniqueViolation } from '../../db/unique-violation';
import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { auditActor, can, reach, type Actor } from '../access/access.service';
import * as schedules from '../schedules/schedules.service';
import * as repo from './admin-stores.repository';
import type { StoreFields } from './admin-stores.repository';

/**
 * Who reads the Stores tab and the store editor (bcc.stores.admin, read-only with the spec's notice) and who
 * edits stores and their outlets (bcc.stores.super_admin), where they hold it (ARCHITECTURE §9, §11): a store
 * grant reaches that store only, never another one its outlets also order from.
 */
export const STORE_VIEW_CODES = [PERMISSIONS.storesAdmin, PERMISSIONS.storesSuperAdmin] as const;
export const STORE_EDIT_CODES = [PERMISSIONS.storesSuperAdmin] as const;
const storeInScope = (db: Db, actor: Actor, id: number, codes: readonly string[] = STORE_EDIT_CODES) =>
  can(db, actor, codes, { type: 'store', id });

type Query = AdminStoresListQuery;
type CreateStore = z.output<typeof createStoreBodySchema>;
type UpdateStore = z.output<typeof updateStoreBodySchema>;

/** Spec 002 §8: a store out of reach answers this (404). */
export const STORE_NOT_FOUND = 'Store not found or access denied';

/** The Stores tab (spec 002 §2; ARCHITECTURE §5 "Administration at scale"): stores in the caller's scope, sorted, filtered, paged; search by name, code, city or number. */
export async function listStores(db: Db, actor: Actor, q: Query) {
  const { items, total } = await repo.findPage(db, {
    within: reach(db, actor, STORE_VIEW_CODES, 'store'),
    search: q.search,
    active: q.active,
    boardId: q.boardId,
    deliveryEnabled: q.deliveryEnabled,
    hasCredentials: q.hasCredentials,
    sort: parseSort(q.sort, 'name'),
    page: q.page,
    pageSize: q.pageSize,
  });
  return { items, page: q.page, pageSize: q.pageSize, total };
}

/** GET /admin/stores/ids: the ids of every store the list shows for these filters (at most ADMIN_SELECT_ALL_MAX), for "select all N matching". */
export async function listStoreIds(db: Db, actor: Actor, q: Omit<Query, 'page' | 'pageSize' | 'sort'>) {
  const { ids, total } = await repo.findIds(
    db,
    {
      within: reach(db, actor, STORE_VIEW_CODES, 'store'),
      search: q.search,
      active: q.active,
      boardId: q.boardId,
      deliveryEnabled: q.deliveryEnabled,
      hasCredentials: q.hasCredentials,
    },
    ADMIN_SELECT_ALL_MAX,
  );
  return { ids, total, truncated: total > ids.length };
}

/** One store of the caller's scope with its settings and whether it has payment credentials; else 404. */
export async function getStore(db: Db, actor: Actor, id: number): Promise<AdminStore> {
  const row = await repo.findStore(db, id, reach(db, actor, STORE_VIEW_CODES, 'store'));
  if (!row) throw new NotFoundError(STORE_NOT_FOUND);
  return { ...row, ...(await schedules.settingsOf(db, id)) };
}

const conflict = (e: unknown): never => {
  const err = uniqueViolation(e);
  if (err) {
    if (err.constraint === 'stores_pkey') throw new ConflictError('A store with this warehouse id already exists', 'store_exists');
    throw new ConflictError('A store with this warehouse code already exists', 'warehouse_code_taken');
  }
  throw e;
};

function columns(body: UpdateStore): StoreFields {
  const map: [keyof UpdateStore, keyof StoreFields][] = [
    ['name', 'name'],
    ['warehouseCode', 'warehouse_code'],
    ['splitCasePolicy', 'split_case_policy'],
    ['splitCaseFee', 'split_case_fee'],
    ['boardId', 'board_id'],
    ['address', 'address'],
    ['city', 'city'],
    ['state', 'state'],
    ['zipCode', 'zip_code'],
    ['phone', 'phone'],
    ['latitude', 'latitude'],
    ['longitude', 'longitude'],
    ['active', 'active'],
    ['deliveryEnabled', 'delivery_enabled'],
    ['deliveryCharge', 'delivery_charge'],
    ['orderconfCcemails', 'orderconf_ccemails'],
  ];
  const out: Record<string, unknown> = {};
  for (const [k, col] of map) if (body[k] !== undefined) out[col] = body[k];
  return out as StoreFields;
}

async function checkBoard(db: Db, actor: Actor, boardId: number | undefined) {
  if (boardId !== undefined && !(await can(db, actor, STORE_EDIT_CODES, { type: 'board', id: boardId }))) {
    throw new BadRequestError(ADMIN_ORG_MESSAGES.boardRequired, [{ path: 'boardId', message: ADMIN_ORG_MESSAGES.boardRequired }]);
  }
}

/**
 * Adds a store (bcc.stores.super_admin; spec 002 §5 store form rules). The warehouse id is the given
 * one or the next free number; id and warehouse code are unique (409). Audited.
 */
export async function createStore(db: Db, actor: Actor, body: CreateStore): Promise<AdminStore> {
  const id = await db
    .transaction(async (trx) => {
      await checkBoard(trx, actor, body.boardId);
      let warehouseId = body.warehouseId;
      if (!warehouseId) {
        warehouseId = await repo.nextWarehouseId(trx);
      }
      const { warehouseId: _w, ...rest } = body;
      void _w;
      await repo.insertStore(trx, warehouseId, columns(rest));
      await recordAudit(trx, auditActor(actor), {
        action: 'store.created',
        entityType: 'store',
        entityId: warehouseId,
        ip: actor.ip,
        details: { ...body, warehouseId },
      });
      return warehouseId;
    })
    .catch(conflict);
  return getStore(db, actor, id);
}

/** Edits a store of the caller's scope (bcc.stores.super_admin), else 404. Audited with the changed fields. */
export async function updateStore(db: Db, actor: Actor, id: number, body: UpdateStore): Promise<AdminStore> {
  await db
    .transaction(async (trx) => {
      if (!(await storeInScope(trx, actor, id))) throw new NotFoundError(STORE_NOT_FOUND);
      await checkBoard(trx, actor, body.boardId);
      const patch = columns(body);
      const ordering = schedules.orderingPatchOf(body);
      if (!Object.keys(patch).length && !ordering) return;
      if (Object.keys(patch).length) {
        const n = await repo.updateStore(trx, id, patch);
        if (!n) throw new NotFoundError('No rows were updated - check permissions or data');
      }
      // Issue 28: schedule, minimums and emergency settings live in store_schedules (schedules module).
      if (ordering) await schedules.updateSettings(trx, id, ordering);
      await recordAudit(trx, auditActor(actor), {
        action: 'store.updated',
        entityType: 'store',
        entityId: id,
        ip: actor.ip,
        details: { ...body },
      });
    })
    .catch(conflict);
  return getStore(db, actor, id);
}

/**
 * The outlets assigned to a store of the caller's scope (spec 002 §7 get_store_assigned_outlets; issue 26 §4), by
 * name: a page of `pageSize` matching `search` with the total, or every one when no pageSize is asked. 404 out of scope.
 */
export async function listStoreOutlets(
  db: Db,
  actor: Actor,
  storeId: number,
  q: { search?: string; page: number; pageSize?: number } = { page: 1 },
) {
  if (!(await storeInScope(db, actor, storeId, STORE_VIEW_CODES))) throw new NotFoundError(STORE_NOT_FOUND);
  const { pageSize } = q;
  const offset = pageSize ? (q.page - 1) * pageSize : undefined;
  const { items, total } = await repo.findStoreOutlets(db, storeId, { search: q.search || undefined, limit: pageSize, offset });
  return { items, total, page: pageSize ? q.page : 1, pageSize: pageSize ?? Math.max(total, 1) };
}

/** An outlet the caller may link: one where they hold bcc.stores.super_admin (a global grant: any). */
async function outletInScope(db: Db, actor: Actor, outletId: number): Promise<boolean> {
  return (await repo.outletExists(db, outletId)) && (await can(db, actor, STORE_EDIT_CODES, { type: 'outlet', id: outletId }));
}

/** Assigns an outlet to a store (idempotent); both must be in the caller's scope (else 404). Audited. */
export async function assignOutlet(db: Db, actor: Actor, storeId: number, outletId: number): Promise<void> {
  await db.transaction(async (trx) => {
    if (!(await storeInScope(trx, actor, storeId))) throw new NotFoundError(STORE_NOT_FOUND);
    if (!(await outletInScope(trx, actor, outletId))) throw new NotFoundError('Outlet not found');
    if (await repo.linkOutlet(trx, storeId, outletId))
      await recordAudit(trx, auditActor(actor), {
        action: 'store.outlet.assigned',
        entityType: 'store',
        entityId: storeId,
        ip: actor.ip,
        details: { outletId },
      });
  });
}

/** Removes an outlet from a store (idempotent); the store must be in the caller's scope (else 404). Audited. */
export async function removeOutlet(db: Db, actor: Actor, storeId: number, outletId: number): Promise<void> {
  await db.transaction(async (trx) => {
    if (!(await storeInScope(trx, actor, storeId))) throw new NotFoundError(STORE_NOT_FOUND);
    if (!(await outletInScope(trx, actor, outletId))) throw new NotFoundError('Outlet not found');
    if (await repo.unlinkOutlet(trx, storeId, outletId))
      await recordAudit(trx, auditActor(actor), {
        action: 'store.outlet.removed',
        entityType: 'store',
        entityId: storeId,
        ip: actor.ip,
        details: { outletId },
      });
  });
}
