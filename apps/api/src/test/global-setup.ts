import { createDb, migrateLatest } from '../db/knex';
import { seedReference } from '@portal/seeds';

/**
 * Jest global setup for the API project: builds one migrated template database (with reference data)
 * on TEST_DATABASE_URL's server; each test file clones it (CREATE DATABASE … TEMPLATE), so files run
 * in parallel on their own fresh database. scripts/test.mjs provides TEST_DATABASE_URL (embedded
 * PostgreSQL when none is given). Jest runs it once per project that names it (api, slow, and e2e's setup):
 * the first call builds the template, the others in the same run reuse it.
 */
export default async function globalSetup() {
  if (process.env.PORTAL_TEST_TEMPLATE && process.env.PORTAL_TEST_SETUP_PID === String(process.pid)) return;
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test` (it starts PostgreSQL when needed)');
  const runId = `${Date.now().toString(36)}${process.pid}`;
  const template = `portal_tpl_${runId}`;
  const admin = createDb(withDatabase(base, 'postgres'), { max: 1 });
  await admin.raw(`CREATE DATABASE ${template}`);
  await admin.destroy();
  const db = createDb(withDatabase(base, template), { max: 1 });
  await migrateLatest(db);
  await seedReference(db);
  await db.destroy();
  process.env.PORTAL_TEST_SERVER = base;
  process.env.PORTAL_TEST_TEMPLATE = template;
  process.env.PORTAL_TEST_RUN = runId;
  process.env.PORTAL_TEST_SETUP_PID = String(process.pid);
}

/** The same server URL with another database name. */
export function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
