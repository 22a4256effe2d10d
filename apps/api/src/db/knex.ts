import { createHash } from 'node:crypto';
import knex, { type Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { migrationSource } from '@portal/migrations';
// Row types of the tables (knex `Tables`), type-only: `db('users')` is typed everywhere.
import type {} from './tables/admin';
import type {} from './tables/integrations';
import type {} from './tables/commerce';
import type {} from './tables/ordering-week';

// numeric → string (money stays exact), bigint count → number, date → 'YYYY-MM-DD' string.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = Knex;
/** A knex transaction (`Db` inside `db.transaction`). */
export type DbTransaction = Knex.Transaction;

/** Opens a knex pool on `connectionString`. Pool size defaults to 10. */
export function createDb(connectionString: string, pool: { min?: number; max?: number } = {}): Db {
  return knex({ client: 'pg', connection: connectionString, pool: { min: pool.min ?? 0, max: pool.max ?? 10 } });
}

/** Prepared statements' names by SQL text (hashed once per text; a bounded set of texts in practice). */
const statementNames = new LRUCache<string, string>({ max: 2_000 });

/**
 * The prepared-statement name of `sql` (knex's text with `?` bindings, or pg's): `prefix_` and 16 hex digits of its
 * SHA-1, computed once per text. Texts and names pair one to one, as pg requires of a connection's named statements.
 */
export function statementName(prefix: string, sql: string): string {
  let name = statementNames.get(sql);
  if (!name) statementNames.set(sql, (name = `${prefix}_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`));
  return name;
}

/**
 * `db.raw(sql, bindings)` run as a named prepared statement (issue 29 §1): each pooled connection parses and plans
 * the text once, and PostgreSQL may keep a generic plan after five runs, instead of parsing and planning it on every
 * call (planning was ≈ 45 % of PostgreSQL's CPU in the orders benchmark). For hot statements whose text has a few
 * shapes at most (each shape is one prepared statement per connection, kept while the connection lives); one
 * statement only (the extended protocol), bindings as for `db.raw`. `db` may be a transaction.
 */
export function preparedRaw<R = unknown>(db: Knex | Knex.Transaction, prefix: string, sql: string, bindings: readonly Knex.RawBinding[]) {
  return db.raw<R>(sql, [...bindings]).options({ name: statementName(prefix, sql) });
}

/** A statement compiled once: knex's SQL (`?` bindings) as pg's positional text, its values, a prepared-statement name. */
export interface CompiledStatement {
  name: string;
  sql: string;
  text: string;
  values: unknown[];
}

/** `sql` with `bindings` compiled by knex's own compiler into pg's text and values, once, for runCompiled. */
export function compileStatement(db: Db, name: string, sql: string, bindings: readonly Knex.RawBinding[]): CompiledStatement {
  const native = db
    .raw(sql, [...bindings])
    .toSQL()
    .toNative();
  return { name, sql, text: native.sql, values: [...native.bindings] };
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}
interface KnexPool {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(c: PgConnection): Promise<unknown>;
  emit(event: 'query', q: { sql: string; bindings: unknown[]; method: 'raw'; options: { name: string } }): boolean;
}

/**
 * Runs a compiled statement as a named prepared statement on a connection of `db`'s pool, without knex's
 * per-call building and compiling (for a hot path's statement whose text and values repeat: the catalog's
 * reach and version). Emits knex's 'query' event as knex would, so query listeners see it. Rows as pg gives them.
 */
export async function runCompiled<T>(db: Db, st: CompiledStatement): Promise<T[]> {
  const client = db.client as unknown as KnexPool;
  const conn = await client.acquireConnection();
  try {
    client.emit('query', { sql: st.sql, bindings: st.values, method: 'raw', options: { name: st.name } });
    return (await conn.query({ name: st.name, text: st.text, values: st.values })).rows as T[];
  } finally {
    await client.releaseConnection(conn);
  }
}

/**
 * Where the database's schema stands against this release's migrations: `pending`, this release's
 * migrations the database has not run; `unknown`, migrations the database has run that this release does
 * not know (a newer release migrated it: expand/contract keeps the schema usable by this one, README
 * "Operating it"). Names in migration order.
 */
export interface MigrationState {
  pending: string[];
  unknown: string[];
}

/** The database's migrations against this release's (see MigrationState). */
export async function migrationState(db: Db): Promise<MigrationState> {
  // knex types the migrator's answers `any`: these are their documented shapes (completed rows, pending files).
  const [completed, pending]: [{ name: string }[], { file: string }[]] = await db.migrate.list({
    migrationSource,
    disableMigrationsListValidation: true,
  });
  const known = new Set((await migrationSource.getMigrations([])).map((m) => migrationSource.getMigrationName(m)));
  return { pending: pending.map((p) => p.file), unknown: completed.map((c) => c.name).filter((n) => !known.has(n)) };
}

/**
 * Applies every pending migration; returns the names applied. A database a newer release has migrated
 * (migrations this release does not know) is left as it is when nothing of this release is pending: an
 * older process runs on the newer, expanded schema (the caller reports it). Throws when the database has
 * unknown migrations AND lacks some of this release's: the two histories diverged, nothing is applied. Another
 * process migrating the same database at the same time (replicas starting together) is waited for, up to
 * `waitMs` (default 2 minutes); that process applies the migrations and this one then finds none pending.
 */
export async function migrateLatest(db: Db, { waitMs = 120_000 }: { waitMs?: number } = {}): Promise<string[]> {
  return withMigrationLock(db, waitMs, async () => {
    const until = Date.now() + waitMs;
    for (;;) {
      try {
        await repairLockRows(db);
        return await migrateOnce(db);
      } catch (e) {
        // A process that does not take the advisory lock (an older release) is migrating the same database: wait
        // for it, then find nothing pending. Anything else is this process's own failure.
        if (!CONCURRENT_MIGRATION.test(String((e as Error).message)) || Date.now() > until) throw e;
        await new Promise((ok) => setTimeout(ok, 500));
      }
    }
  });
}

/**
 * What knex answers when two processes migrate one database at once: both create its bookkeeping tables
 * (`knex_migrations`, `knex_migrations_lock`) on a new database, or one finds the other's lock taken.
 */
const CONCURRENT_MIGRATION = /knex_migrations[\s\S]*(duplicate key value|already exists)|Migration table is already locked/;

/** The session advisory lock (`hashtext` of this name) that every process of this release migrates under. */
const MIGRATION_LOCK = 'portal.migrations';

/**
 * Runs `fn` holding a PostgreSQL session advisory lock on a connection of its own, so that processes migrating
 * one database (replicas starting together) take turns. knex's own lock cannot be relied on for a new database:
 * two processes that create its lock table together each insert its row, and with two unlocked rows knex then
 * refuses every process for ever ("Migration table is already locked", knex#3538). The connection is not `db`'s
 * pool's, so a one-connection pool still migrates. Throws after `waitMs` waiting for another process's turn.
 */
async function withMigrationLock<T>(db: Db, waitMs: number, fn: () => Promise<T>): Promise<T> {
  const config = db.client.config.connection as string | pg.ClientConfig;
  const session = new pg.Client(typeof config === 'string' ? { connectionString: config } : config);
  await session.connect();
  try {
    await session.query(`SET lock_timeout = ${Math.max(1, Math.floor(waitMs))}`);
    try {
      await session.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
    } catch (e) {
      if ((e as { code?: string }).code !== '55P03') throw e;
      throw new Error(`another process has been migrating this database for more than ${waitMs} ms: try again once it has finished`);
    }
    return await fn();
  } finally {
    await session.end(); // ends the session, and with it the lock
  }
}

/**
 * Leaves knex's lock table with one row when an earlier race left several, all unlocked (knex#3538: knex would
 * then refuse every migration). Run under the advisory lock; a row that is locked (a migration under way
 * elsewhere, or one that died holding it) is left for knex's own message.
 */
async function repairLockRows(db: Db): Promise<void> {
  await db.raw(`DO $$ BEGIN
    IF to_regclass('knex_migrations_lock') IS NOT NULL THEN
      DELETE FROM knex_migrations_lock l
       WHERE EXISTS (SELECT 1 FROM knex_migrations_lock f WHERE f.index < l.index)
         AND NOT EXISTS (SELECT 1 FROM knex_migrations_lock k WHERE k.is_locked <> 0);
    END IF;
  END $$`);
}

async function migrateOnce(db: Db): Promise<string[]> {
  const state = await migrationState(db);
  if (state.unknown.length && state.pending.length) {
    throw new Error(
      `the database has migrations this release does not know (${state.unknown.join(', ')}) and lacks some of its own (${state.pending.join(', ')}): deploy the release that has them all, or roll the newer ones back with that release's db:rollback`,
    );
  }
  if (!state.pending.length) return [];
  const [, applied]: [number, string[]] = await db.migrate.latest({ migrationSource, disableMigrationsListValidation: true });
  return applied;
}

/** Rolls back the last batch, or every migration with `all`. */
export async function migrateRollback(db: Db, all = false): Promise<string[]> {
  const [, rolled]: [number, string[]] = await db.migrate.rollback({ migrationSource }, all);
  return rolled;
}

/** 'pending' when a migration of this release is pending, 'ahead' when the database has newer ones only, else 'current'. */
export async function migrationStatus(db: Db): Promise<'current' | 'pending' | 'ahead'> {
  const state = await migrationState(db);
  return state.pending.length ? 'pending' : state.unknown.length ? 'ahead' : 'current';
}
