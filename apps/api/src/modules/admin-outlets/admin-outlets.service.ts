import type { z } from 'zod';
import {
  PERMISSIONS,
  type AdminOutlet,
  type adminOutletsQuerySchema,
  type createOutletBodySchema,
  type updateOutletBodySchema,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { auditActor, can, whereInReach, type Actor } from '../access/access.service';

/** Who administers outlets (spec 002 §6 Outlets tab), where they hold it (ARCHITECTURE §11). */
export const OUTLET_ADMIN_CODES = [PERMISSIONS.outletsAdmin] as const;

type Query = z.output<typeof adminOutletsQuerySchema>;
type CreateOutlet = z.output<typeof createOutletBodySchema>;
type UpdateOutlet = z.output<typeof updateOutletBodySchema>;

const select = (db: Db) =>
  db('outlets as o')
    .leftJoin('boards as b', 'b.id', 'o.board_id')
    .select(
      'o.id',
      'o.outlet_code as outletCode',
      'o.name',
      'o.city',
      'o.state',
      'o.active',
      'o.is_admin_outlet as isAdminOutlet',
      'o.default_store_id as defaultStoreId',
      'o.board_id as boardId',
      'b.name as boardName',
      db.raw(
        `coalesce((SELECT array_agg(s.id ORDER BY s.name) FROM store_outlets so JOIN stores s ON s.id = so.store_id WHERE so.outlet_id = o.id), '{}') AS "storeIds"`,
      ),
      db.raw(
        `coalesce((SELECT array_agg(s.name ORDER BY s.name) FROM store_outlets so JOIN stores s ON s.id = so.store_id WHERE so.outlet_id = o.id), '{}') AS "storeNames"`,
      ),
    );

/**
 * Outlets the caller administers: those their grants holding bcc.outlets.admin cover (a board grant: the
 * board's outlets; a global one: all, including the system admin outlets).
 */
function scoped(db: Db, actor: Actor, q = db('outlets as o')) {
  return whereInReach(db, actor, OUTLET_ADMIN_CODES, 'outlet', q, 'o.id');
}

/** The Outlets tab (spec 002 §2): id, name, code, city, state, active, board name, store names; search by name, code or city. */
export async function listOutlets(db: Db, actor: Actor, q: Query) {
  const base = scoped(db, actor);
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => {
      w.whereILike('o.name', like).orWhereILike('o.outlet_code', like).orWhereILike('o.city', like);
    });
  }
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const items: AdminOutlet[] = await select(db)
    .whereIn('o.id', base.clone().select('o.id'))
    .orderBy('o.name')
    .orderBy('o.id')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return { items, page: q.page, pageSize: q.pageSize, total: Number(n) };
}

async function getOutlet(db: Db, id: number): Promise<AdminOutlet> {
  const row = await select(db).where('o.id', id).first();
  if (!row) throw new NotFoundError('Outlet not found');
  return row;
}

const TAKEN = () => new ConflictError('An outlet with this code already exists', 'outlet_code_taken');

async function checkRefs(db: Db, actor: Actor, body: { boardId?: number; defaultStoreId?: number | null }) {
  if (body.boardId !== undefined && !(await can(db, actor, OUTLET_ADMIN_CODES, { type: 'board', id: body.boardId }))) {
    throw new BadRequestError('Board selection is required', [{ path: 'boardId', message: 'Board selection is required' }]);
  }
  if (body.defaultStoreId && !(await can(db, actor, OUTLET_ADMIN_CODES, { type: 'store', id: body.defaultStoreId }))) {
    throw new BadRequestError('The default store does not exist', [{ path: 'defaultStoreId', message: 'Unknown store' }]);
  }
}

async function codeTaken(db: Db, code: string, exceptId?: number) {
  const q = db('outlets').whereRaw('lower(outlet_code) = lower(?)', [code]);
  if (exceptId) q.whereNot('id', exceptId);
  return Boolean(await q.first('id'));
}

/**
 * Adds an outlet (spec 002 §5: name and code required, state two letters upper-cased). The board must be
 * one of the caller's; the code is unique (409 outlet_code_taken). Audited.
 */
export async function createOutlet(db: Db, actor: Actor, body: CreateOutlet): Promise<AdminOutlet> {
  const id = await db
    .transaction(async (trx) => {
      await checkRefs(trx, actor, body);
      if (await codeTaken(trx, body.outletCode)) throw TAKEN();
      const [row] = await trx('outlets')
        .insert({
          name: body.name,
          outlet_code: body.outletCode,
          city: body.city,
          state: body.state,
          active: body.active ?? true,
          board_id: body.boardId,
          default_store_id: body.defaultStoreId ?? null,
        })
        .returning('id');
      await recordAudit(trx, auditActor(actor), {
        action: 'outlet.created',
        entityType: 'outlet',
        entityId: row.id,
        ip: actor.ip,
        details: { ...body },
      });
      return row.id as number;
    })
    .catch((e) => {
      if ((e as { code?: string }).code === '23505') throw TAKEN();
      throw e;
    });
  return getOutlet(db, id);
}

/** Edits an outlet of the caller's boards (else 404) with the same rules as creation. Audited. */
export async function updateOutlet(db: Db, actor: Actor, id: number, body: UpdateOutlet): Promise<AdminOutlet> {
  await db
    .transaction(async (trx) => {
      const found = await scoped(trx, actor, trx('outlets as o')).where('o.id', id).forUpdate().first('o.id');
      if (!found) throw new NotFoundError('Outlet not found');
      await checkRefs(trx, actor, body);
      if (body.outletCode && (await codeTaken(trx, body.outletCode, id))) throw TAKEN();
      const patch: Record<string, unknown> = {};
      if (body.name !== undefined) patch.name = body.name;
      if (body.outletCode !== undefined) patch.outlet_code = body.outletCode;
      if (body.city !== undefined) patch.city = body.city;
      if (body.state !== undefined) patch.state = body.state;
      if (body.active !== undefined) patch.active = body.active;
      if (body.boardId !== undefined) patch.board_id = body.boardId;
      if (body.defaultStoreId !== undefined) patch.default_store_id = body.defaultStoreId;
      if (Object.keys(patch).length)
        await trx('outlets')
          .where({ id })
          .update({ ...patch, updated_at: trx.fn.now() });
      await recordAudit(trx, auditActor(actor), {
        action: 'outlet.updated',
        entityType: 'outlet',
        entityId: id,
        ip: actor.ip,
        details: { ...body },
      });
    })
    .catch((e) => {
      if ((e as { code?: string }).code === '23505') throw TAKEN();
      throw e;
    });
  return getOutlet(db, id);
}
