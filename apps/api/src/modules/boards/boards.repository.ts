import type { Knex } from 'knex';
import type { AdminBoard } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { BoardRow } from '../../db/tables/admin';

/** Queries of the Boards tab (spec 002 §3 Board); the only place with its SQL. */

type Q = Db | Knex.Transaction;

const select = (db: Q) =>
  db('boards as b').select<AdminBoard[]>(
    'b.id',
    'b.board_number as boardNumber',
    'b.name',
    'b.is_active as isActive',
    db.raw('(SELECT count(*)::int FROM stores s WHERE s.board_id = b.id AND s.active AND NOT s.is_warehouse) AS "activeStoreCount"'),
  );

/** Boards by board number, each with its count of active stores; `within`: a subquery of board ids (null: all). */
export async function findBoards(db: Q, within: Knex.QueryBuilder | null): Promise<AdminBoard[]> {
  const q = select(db).orderBy('b.board_number');
  return within ? q.whereIn('b.id', within) : q;
}

/** One board as the tab shows it, or undefined. */
export async function findBoard(db: Q, id: number): Promise<AdminBoard | undefined> {
  const [row] = await select(db).where('b.id', id).limit(1);
  return row;
}

/** Inserts a board; returns its id. Unique board number (23505). */
export async function insertBoard(db: Q, b: { boardNumber: number; name: string; isActive: boolean }): Promise<number> {
  const [row] = await db('boards').insert({ board_number: b.boardNumber, name: b.name, is_active: b.isActive }).returning('id');
  return row.id;
}

/** Updates the given fields of a board (and its updated_at); nothing when the patch is empty. */
export async function updateBoard(db: Q, id: number, patch: { boardNumber?: number; name?: string; isActive?: boolean }): Promise<void> {
  const row: Partial<Pick<BoardRow, 'board_number' | 'name' | 'is_active'>> = {};
  if (patch.boardNumber !== undefined) row.board_number = patch.boardNumber;
  if (patch.name !== undefined) row.name = patch.name;
  if (patch.isActive !== undefined) row.is_active = patch.isActive;
  if (!Object.keys(row).length) return;
  await db('boards')
    .where({ id })
    .update({ ...row, updated_at: db.fn.now() });
}
