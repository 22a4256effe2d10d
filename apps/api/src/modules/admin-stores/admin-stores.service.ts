import type { z } from 'zod';
import {
  PERMISSIONS,
  ADMIN_ORG_MESSAGES,
  type AdminStore,
  type adminStoresQuerySchema,
  type createStoreBodySchema,
  type updateStoreBodySchema,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { auditActor, can, whereInReach, type Actor } from '../access/access.service';

/**
 * Who reads the Stores tab and the store editor (bcc.stores.admin, read-only with the spec's notice) and who
 * edits stores and their outlets (bcc.stores.super_admin), where they hold it (ARCHITECTURE §9, §11): a store
 * grant reaches that store only, never another one its outlets also order from.
 */
export const STORE_VIEW_CODES = [PERMISSIONS.storesAdmin, PERMISSIONS.storesSuperAdmin] as const;
export const STORE_EDIT_CODES = [PERMISSIONS.storesSuperAdmin] as const;
const storeInScope = (db: Db, actor: Actor, id: number, codes: readonly string[] = STORE_EDIT_CODES) =>
  can(db, actor, codes, { type: 'store', id });

type Query = z.output<typeof adminStoresQuerySchema>;
type CreateStore = z.output<typeof createStoreBodySchema>;
type UpdateStore = z.output<typeof updateStoreBodySchema>;

/** Spec 002 §8: a store out of reach answers this (404). */
export const STORE_NOT_FOUND = 'Store not found or access denied';

const select = (db: Db) =>
  db('stores as s')
    .join('boards as b', 'b.id', 's.board_id')
    .select(
      's.id',
      's.id as warehouseId',
      's.warehouse_code as warehouseCode',
      's.name',
      's.board_id as boardId',
      'b.board_number as boardNumber',
      'b.name as boardName',
      's.address',
      's.city',
      's.state',
      's.zip_code as zipCode',
      's.phone',
      db.raw('s.latitude::text AS latitude'),
      db.raw('s.longitude::text AS longitude'),
      's.active',
      's.is_warehouse as isWarehouse',
      's.delivery_enabled as deliveryEnabled',
      db.raw('s.delivery_charge::text AS "deliveryCharge"'),
      's.orderconf_ccemails as orderconfCcemails',
      db.raw('EXISTS (SELECT 1 FROM payment_credentials pc WHERE pc.store_id = s.id) AS "hasPaymentCredentials"'),
      db.raw('(SELECT count(*)::int FROM store_outlets so WHERE so.store_id = s.id) AS "outletCount"'),
    );

/** The Stores tab (spec 002 §2): stores in the caller's scope by name; search by name, code, city or number. */
export async function listStores(db: Db, actor: Actor, q: Query) {
  const base = whereInReach(db, actor, STORE_VIEW_CODES, 'store', db('stores as s'), 's.id');
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => {
      w.whereILike('s.name', like).orWhereILike('s.warehouse_code', like).orWhereILike('s.city', like);
      if (/^\d{1,9}$/.test(q.search!)) w.orWhere('s.id', Number(q.search));
    });
  }
  if (q.active !== undefined) base.where('s.active', q.active);
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const items: AdminStore[] = await select(db)
    .whereIn('s.id', base.clone().select('s.id'))
    .orderBy('s.name')
    .orderBy('s.id')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return { items, page: q.page, pageSize: q.pageSize, total: Number(n) };
}

/** One store of the caller's scope with its settings and whether it has payment credentials; else 404. */
export async function getStore(db: Db, actor: Actor, id: number): Promise<AdminStore> {
  const row = await whereInReach(db, actor, STORE_VIEW_CODES, 'store', select(db).where('s.id', id), 's.id').first();
  if (!row) throw new NotFoundError(STORE_NOT_FOUND);
  return row;
}

const conflict = (e: unknown): never => {
  const err = e as { code?: string; constraint?: string };
  if (err.code === '23505') {
    if (err.constraint === 'stores_pkey') throw new ConflictError('A store with this warehouse id already exists', 'store_exists');
    throw new ConflictError('A store with this warehouse code already exists', 'warehouse_code_taken');
  }
  throw e;
};

function columns(body: UpdateStore): Record<string, unknown> {
  const map: [keyof UpdateStore, string][] = [
    ['name', 'name'],
    ['warehouseCode', 'warehouse_code'],
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
  return out;
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
        await trx.raw('LOCK TABLE stores IN SHARE ROW EXCLUSIVE MODE');
        warehouseId = Number((await trx('stores').max<{ m: number | null }[]>('id as m'))[0].m ?? 0) + 1;
      }
      const { warehouseId: _w, ...rest } = body;
      void _w;
      await trx('stores').insert({ id: warehouseId, ...columns(rest) });
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
      if (!Object.keys(patch).length) return;
      const n = await trx('stores')
        .where({ id })
        .update({ ...patch, updated_at: trx.fn.now() });
      if (!n) throw new NotFoundError('No rows were updated - check permissions or data');
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

/** The outlets assigned to a store of the caller's scope (spec 002 §7 get_store_assigned_outlets), by name. */
export async function listStoreOutlets(db: Db, actor: Actor, storeId: number) {
  if (!(await storeInScope(db, actor, storeId, STORE_VIEW_CODES))) throw new NotFoundError(STORE_NOT_FOUND);
  const items = await db('store_outlets as so')
    .join('outlets as o', 'o.id', 'so.outlet_id')
    .where('so.store_id', storeId)
    .orderBy('o.name')
    .select('o.id as outletId', 'o.outlet_code as outletCode', 'o.name as outletName', 'o.city', 'o.state', 'o.active');
  return { items };
}

/** An outlet the caller may link: one where they hold bcc.stores.super_admin (a global grant: any). */
async function outletInScope(db: Db, actor: Actor, outletId: number): Promise<boolean> {
  return (
    Boolean(await db('outlets').where({ id: outletId }).first('id')) &&
    (await can(db, actor, STORE_EDIT_CODES, { type: 'outlet', id: outletId }))
  );
}

/** Assigns an outlet to a store (idempotent); both must be in the caller's scope (else 404). Audited. */
export async function assignOutlet(db: Db, actor: Actor, storeId: number, outletId: number): Promise<void> {
  await db.transaction(async (trx) => {
    if (!(await storeInScope(trx, actor, storeId))) throw new NotFoundError(STORE_NOT_FOUND);
    if (!(await outletInScope(trx, actor, outletId))) throw new NotFoundError('Outlet not found');
    const added = await trx('store_outlets')
      .insert({ store_id: storeId, outlet_id: outletId })
      .onConflict(['store_id', 'outlet_id'])
      .ignore()
      .returning('store_id');
    if (added.length)
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
    const n = await trx('store_outlets').where({ store_id: storeId, outlet_id: outletId }).delete();
    if (n)
      await recordAudit(trx, auditActor(actor), {
        action: 'store.outlet.removed',
        entityType: 'store',
        entityId: storeId,
        ip: actor.ip,
        details: { outletId },
      });
  });
}
