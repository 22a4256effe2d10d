import type { Knex } from 'knex';
import { migrationSource } from '@portal/migrations';
import { errorMessage } from '../lib/errors';

/** What a rollback would do: the migrations it undoes (newest first) and what they drop, with rows. */
export interface RollbackPlan {
  migrations: string[];
  /** Tables it drops, with their exact row counts now. */
  tables: { name: string; rows: number }[];
  /** Columns it drops from tables that stay ("table.column"). */
  columns: string[];
  /** Set when the dry run could not be made (a lock not granted in 3 s, a migration that cannot run in a transaction). */
  unknown?: string;
}

const ROLLED_BACK = Symbol('dry run');

async function shape(db: Knex): Promise<Map<string, Set<string>>> {
  const { rows } = await db.raw<{ rows: { t: string; c: string }[] }>(
    `SELECT c.table_name AS t, c.column_name AS c FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name NOT LIKE 'knex\\_migrations%'`,
  );
  const m = new Map<string, Set<string>>();
  for (const r of rows) {
    const columns = m.get(r.t) ?? new Set<string>();
    columns.add(r.c);
    m.set(r.t, columns);
  }
  return m;
}

/**
 * What `db:rollback` (`all`: every migration, else the last batch) would drop (issue 23 §6): the migrations'
 * `down` run in one transaction that is then rolled back (nothing changes; the locks it takes are held for
 * that moment only, and waited for at most 3 s), comparing the schema's tables and columns before and
 * after; the dropped tables' rows are counted. When the dry run cannot be made, `unknown` says why and,
 * for `all`, every table is listed (all of them go).
 */
export async function rollbackPlan(db: Knex, all: boolean): Promise<RollbackPlan> {
  const done: { name: string; batch: number }[] = (await db.schema.hasTable('knex_migrations'))
    ? await db('knex_migrations').orderBy('id', 'desc').select('name', 'batch')
    : [];
  const last = Math.max(0, ...done.map((m) => m.batch));
  const migrations = done.filter((m) => all || m.batch === last).map((m) => m.name);
  const before = await shape(db);
  let after: Map<string, Set<string>> | undefined;
  let unknown: string | undefined;
  try {
    await db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL lock_timeout = '3s'`);
      for (const name of migrations) {
        const migration = await migrationSource.getMigration(name);
        if (!migration?.down) throw new Error(`migration ${name} is not in the migrations list`);
        await migration.down(trx);
      }
      after = await shape(trx);
      throw ROLLED_BACK;
    });
  } catch (err) {
    if (err !== ROLLED_BACK) unknown = errorMessage(err).split('\n')[0].slice(0, 200);
  }
  const dropped = [...before.keys()].filter((t) => (after ? !after.has(t) : all)).sort();
  const tables = [];
  for (const name of dropped) {
    const [{ n }] = await db(name).count<{ n: string }[]>('* as n');
    tables.push({ name, rows: Number(n) });
  }
  const schemaAfter: Map<string, Set<string>> | undefined = after;
  const columns = schemaAfter
    ? [...before.entries()].flatMap(([t, cols]) => {
        const kept = schemaAfter.get(t);
        return kept ? [...cols].filter((c) => !kept.has(c)).map((c) => `${t}.${c}`) : [];
      })
    : [];
  return { migrations, tables, columns, ...(unknown ? { unknown } : {}) };
}
