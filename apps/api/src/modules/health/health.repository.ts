import type { Db } from '../../db/knex';

/** Is the database reachable? Runs `SELECT 1`; rejects when it is not. */
export async function ping(db: Db): Promise<void> {
  await db.raw('SELECT 1');
}
