import type { Db } from '../../db/knex';

/** Is there a store of id `id`? */
export async function storeExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db('stores').where({ id }).first('id'));
}

/** Is there a board of id `id`? */
export async function boardExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db('boards').where({ id }).first('id'));
}
