import { createDb } from '../db/knex';
import { withDatabase } from './global-setup';

/** Drops the template and every database this run cloned from it. */
export default async function globalTeardown() {
  const base = process.env.PORTAL_TEST_SERVER;
  const run = process.env.PORTAL_TEST_RUN;
  if (!base || !run) return;
  const admin = createDb(withDatabase(base, 'postgres'), { max: 1 });
  const { rows } = await admin.raw(`SELECT datname FROM pg_database WHERE datname LIKE ?`, [`portal_%${run}%`]);
  for (const { datname } of rows) await admin.raw(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  await admin.destroy();
}
