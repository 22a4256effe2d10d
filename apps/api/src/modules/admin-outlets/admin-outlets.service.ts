import type { z } from 'zod';
import {
  PERMISSIONS,
  type AdminOutlet,
  parseSort,
  type AdminOutletsListQuery,
  type createOutletBodySchema,
  type updateOutletBodySchema,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { uniqueViolation } from '../../db/unique-violation';
import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { auditActor, can, reach, type Actor } from '../access/access.service';
import * as repo from './admin-outlets.repository';
import type { OutletFields } from './admin-outlets.repository';

/** Who administers outlets (spec 002 §6 Outlets tab), where they hold it (ARCHITECTURE §11). */
export const OUTLET_ADMIN_CODES = [PERMISSIONS.outletsAdmin] as const;

type Query = AdminOutletsListQuery;
type CreateOutlet = z.output<typeof createOutletBodySchema>;
type UpdateOutlet = z.output<typeof updateOutletBodySchema>;

/**
 * Outlets the caller administers: those their grants holding bcc.outlets.admin cover (a board grant: the
 * board's outlets; a global one: all, including the system admin outlets).
 */
const scoped = (db: Db, actor: Actor) => reach(db, actor, OUTLET_ADMIN_CODES, 'outlet');

/** The Outlets tab (spec 002 §2; ARCHITECTURE §5 "Administration at scale"): id, name, code, city, state, active, board name, store names; search by name, code or city; filters, sort, paging. */
export async function listOutlets(db: Db, actor: Actor, q: Query) {
  const { items, total } = await repo.findPage(db, {
    within: scoped(db, actor),
    search: q.search,
    boardId: q.boardId,
    storeId: q.storeId,
    active: q.active,
    sort: parseSort(q.sort, 'name'),
    page: q.page,
    pageSize: q.pageSize,
  });
  return { items, page: q.page, pageSize: q.pageSize, total };
}

async function getOutlet(db: Db, id: number): Promise<AdminOutlet> {
  const row = await repo.findOutlet(db, id);
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

/**
 * Adds an outlet (spec 002 §5: name and code required, state two letters upper-cased). The board must be
 * one of the caller's; the code is unique (409 outlet_code_taken). Audited.
 */
export async function createOutlet(db: Db, actor: Actor, body: CreateOutlet): Promise<AdminOutlet> {
  const id = await db
    .transaction(async (trx) => {
      await checkRefs(trx, actor, body);
      if (await repo.codeTaken(trx, body.outletCode)) throw TAKEN();
      const id = await repo.insertOutlet(trx, {
        name: body.name,
        outlet_code: body.outletCode,
        city: body.city,
        state: body.state,
        active: body.active ?? true,
        board_id: body.boardId,
        default_store_id: body.defaultStoreId ?? null,
      });
      await recordAudit(trx, auditActor(actor), {
        action: 'outlet.created',
        entityType: 'outlet',
        entityId: id,
        ip: actor.ip,
        details: { ...body },
      });
      return id;
    })
    .catch((e) => {
      if (uniqueViolation(e)) throw TAKEN();
      throw e;
    });
  return getOutlet(db, id);
}

/** Edits an outlet of the caller's boards (else 404) with the same rules as creation. Audited. */
export async function updateOutlet(db: Db, actor: Actor, id: number, body: UpdateOutlet): Promise<AdminOutlet> {
  await db
    .transaction(async (trx) => {
      if (!(await repo.lockOutlet(trx, id, scoped(trx, actor)))) throw new NotFoundError('Outlet not found');
      await checkRefs(trx, actor, body);
      if (body.outletCode && (await repo.codeTaken(trx, body.outletCode, id))) throw TAKEN();
      const patch: OutletFields = {};
      if (body.name !== undefined) patch.name = body.name;
      if (body.outletCode !== undefined) patch.outlet_code = body.outletCode;
      if (body.city !== undefined) patch.city = body.city;
      if (body.state !== undefined) patch.state = body.state;
      if (body.active !== undefined) patch.active = body.active;
      if (body.boardId !== undefined) patch.board_id = body.boardId;
      if (body.defaultStoreId !== undefined) patch.default_store_id = body.defaultStoreId;
      await repo.updateOutlet(trx, id, patch);
      await recordAudit(trx, auditActor(actor), {
        action: 'outlet.updated',
        entityType: 'outlet',
        entityId: id,
        ip: actor.ip,
        details: { ...body },
      });
    })
    .catch((e) => {
      if (uniqueViolation(e)) throw TAKEN();
      throw e;
    });
  return getOutlet(db, id);
}
