import knex, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from '@portal/migrations';

// numeric → string (money stays exact), bigint count → number, date → 'YYYY-MM-DD' string.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = Knex;

/** Opens a knex pool on `connectionString`. Pool size defaults to 10. */
export function createDb(connectionString: string, pool: { min?: number; max?: number } = {}): Db {
  return knex({ client: 'pg', connection: connectionString, pool: { min: pool.min ?? 0, max: pool.max ?? 10 } });
}

/** Applies every pending migration; returns the names applied. */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = await db.migrate.latest({ migrationSource });
  return applied as string[];
}

/** Rolls back the last batch, or every migration with `all`. */
export async function migrateRollback(db: Db, all = false): Promise<string[]> {
  const [, rolled] = await db.migrate.rollback({ migrationSource }, all);
  return rolled as string[];
}

/** 'current' when no migration is pending, else 'pending'. */
export async function migrationStatus(db: Db): Promise<'current' | 'pending'> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
  return pending.length === 0 ? 'current' : 'pending';
}
