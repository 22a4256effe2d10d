import type { z } from 'zod';
import { PERMISSIONS, type AdminBoard, type createBoardBodySchema, type updateBoardBodySchema } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { ConflictError, NotFoundError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { can, whereInReach, type Actor } from '../access/access.service';

/** Who manages boards (spec 002 §6 Boards tab): at the boards they hold it; a new board needs a global grant. */
export const BOARD_CODES = [PERMISSIONS.boardsManage] as const;

type CreateBoard = z.output<typeof createBoardBodySchema>;
type UpdateBoard = z.output<typeof updateBoardBodySchema>;

const select = (db: Db) =>
  db('boards as b').select(
    'b.id',
    'b.board_number as boardNumber',
    'b.name',
    'b.is_active as isActive',
    db.raw('(SELECT count(*)::int FROM stores s WHERE s.board_id = b.id AND s.active AND NOT s.is_warehouse) AS "activeStoreCount"'),
  );

/** Boards where the caller holds bcc.boards.manage (a global grant: all), by board number, each with its count of active stores (spec 002 §3 Board). */
export async function listBoards(db: Db, actor: Actor): Promise<{ items: AdminBoard[] }> {
  const items = await whereInReach(db, actor, BOARD_CODES, 'board', select(db).orderBy('b.board_number'), 'b.id');
  return { items };
}

async function getBoard(db: Db, id: number): Promise<AdminBoard> {
  const row = await select(db).where('b.id', id).first();
  if (!row) throw new NotFoundError('Board not found');
  return row;
}

const taken = (e: unknown) => (e as { code?: string }).code === '23505';
const TAKEN = () => new ConflictError('A board with this board number already exists', 'board_number_taken');

/**
 * Adds a board (board number required and unique → 409 board_number_taken); audited. The route needs a global
 * grant (a new board is nobody's until someone is granted there).
 */
export async function createBoard(db: Db, actor: Actor, body: CreateBoard): Promise<AdminBoard> {
  try {
    const id = await db.transaction(async (trx) => {
      const [row] = await trx('boards')
        .insert({ board_number: body.boardNumber, name: body.name, is_active: body.isActive ?? true })
        .returning('id');
      await recordAudit(
        trx,
        { userId: actor.userId, email: actor.email },
        {
          action: 'board.created',
          entityType: 'board',
          entityId: row.id,
          ip: actor.ip,
          details: { boardNumber: body.boardNumber, name: body.name },
        },
      );
      return row.id as number;
    });
    return getBoard(db, id);
  } catch (e) {
    if (taken(e)) throw TAKEN();
    throw e;
  }
}

/** Edits a board of the caller's scope (else 404); audited with the changed fields. */
export async function updateBoard(db: Db, actor: Actor, id: number, body: UpdateBoard): Promise<AdminBoard> {
  try {
    await db.transaction(async (trx) => {
      if (!(await can(trx, actor, BOARD_CODES, { type: 'board', id }))) throw new NotFoundError('Board not found');
      const patch: Record<string, unknown> = {};
      if (body.boardNumber !== undefined) patch.board_number = body.boardNumber;
      if (body.name !== undefined) patch.name = body.name;
      if (body.isActive !== undefined) patch.is_active = body.isActive;
      if (Object.keys(patch).length)
        await trx('boards')
          .where({ id })
          .update({ ...patch, updated_at: trx.fn.now() });
      await recordAudit(
        trx,
        { userId: actor.userId, email: actor.email },
        { action: 'board.updated', entityType: 'board', entityId: id, ip: actor.ip, details: { ...body } },
      );
    });
  } catch (e) {
    if (taken(e)) throw TAKEN();
    throw e;
  }
  return getBoard(db, id);
}
