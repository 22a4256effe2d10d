import type { z } from 'zod';
import { PERMISSIONS, type AdminBoard, type createBoardBodySchema, type updateBoardBodySchema } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { uniqueViolation } from '../../db/unique-violation';
import { ConflictError, NotFoundError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { can, reach, type Actor } from '../access/access.service';
import * as repo from './boards.repository';

/** Who manages boards (spec 002 §6 Boards tab): at the boards they hold it; a new board needs a global grant. */
export const BOARD_CODES = [PERMISSIONS.boardsManage] as const;

type CreateBoard = z.output<typeof createBoardBodySchema>;
type UpdateBoard = z.output<typeof updateBoardBodySchema>;

/** Boards where the caller holds bcc.boards.manage (a global grant: all), by board number, each with its count of active stores (spec 002 §3 Board). */
export async function listBoards(db: Db, actor: Actor): Promise<{ items: AdminBoard[] }> {
  return { items: await repo.findBoards(db, reach(db, actor, BOARD_CODES, 'board')) };
}

async function getBoard(db: Db, id: number): Promise<AdminBoard> {
  const row = await repo.findBoard(db, id);
  if (!row) throw new NotFoundError('Board not found');
  return row;
}

const taken = (e: unknown) => Boolean(uniqueViolation(e));
const TAKEN = () => new ConflictError('A board with this board number already exists', 'board_number_taken');

/**
 * Adds a board (board number required and unique → 409 board_number_taken); audited. The route needs a global
 * grant (a new board is nobody's until someone is granted there).
 */
export async function createBoard(db: Db, actor: Actor, body: CreateBoard): Promise<AdminBoard> {
  try {
    const id = await db.transaction(async (trx) => {
      const id = await repo.insertBoard(trx, { boardNumber: body.boardNumber, name: body.name, isActive: body.isActive ?? true });
      await recordAudit(
        trx,
        { userId: actor.userId, email: actor.email },
        {
          action: 'board.created',
          entityType: 'board',
          entityId: id,
          ip: actor.ip,
          details: { boardNumber: body.boardNumber, name: body.name },
        },
      );
      return id;
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
      await repo.updateBoard(trx, id, body);
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
