import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { migrateLatest, migrationState } from '../../db/knex';
import { metricsRegistry } from '../../http/metrics';
import { createTestContext, type TestContext } from '../../test/harness';
import { reportSchema } from './health.service';

/**
 * Upgrades (issue 24 §4): while a release rolls out, or after its code is rolled back, an older process
 * meets a database with migrations it does not know. It must start and serve (readiness ready, one
 * warning line, a metric), never report the database as down; only its own pending migrations make it
 * not ready.
 */
let t: TestContext;
const NEWER = '2099123100000001_added_by_a_newer_release';

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

const gauge = async () => (await metricsRegistry.getSingleMetric('portal_db_unknown_migrations')!.get()).values[0]?.value;

/** A pino logger whose lines land in `lines` (parsed). */
function capturingLogger() {
  const lines: { level: number; msg: string; unknownMigrations?: string[] }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('readiness and migrations across releases', () => {
  it('when the database is migrated by this release, then readiness is ready with migrations current and no unknown migration', async () => {
    const res = await request(t.app).get('/api/v1/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', database: 'up', migrations: 'current' });
    expect(await gauge()).toBe(0);
  });

  it('when a newer release has added a migration, then this release migrates nothing, starts with one warning line and the metric, and is ready (ahead)', async () => {
    const { batch } = (await t.db('knex_migrations').max('batch as batch').first()) as { batch: number };
    await t.db('knex_migrations').insert({ name: NEWER, batch: batch + 1, migration_time: new Date() });

    await expect(migrateLatest(t.db)).resolves.toEqual([]);
    expect(await migrationState(t.db)).toEqual({ pending: [], unknown: [NEWER] });
    const { logger, lines } = capturingLogger();
    await reportSchema(t.db, logger);
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ unknownMigrations: [NEWER] });
    expect(warnings[0].msg).toMatch(/1 migration this release does not know .*serving on the newer schema/);
    expect(await gauge()).toBe(1);

    const res = await request(t.app).get('/api/v1/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', database: 'up', migrations: 'ahead' });
    const metrics = await request(t.app).get('/metrics');
    expect(metrics.text).toMatch(/^portal_db_unknown_migrations 1$/m);
  });

  it('when this release’s own migration is missing as well, then migrating refuses (histories diverged) and readiness says pending, database up', async () => {
    const [{ name: last }] = await t.db('knex_migrations').whereNot({ name: NEWER }).orderBy('id', 'desc').limit(1).select('name');
    await t.db('knex_migrations').where({ name: last }).delete();

    await expect(migrateLatest(t.db)).rejects.toThrow(
      /does not know \(2099123100000001_added_by_a_newer_release\) and lacks some of its own/,
    );
    const res = await request(t.app).get('/api/v1/health/ready');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'not_ready', database: 'up', migrations: 'pending' });
  });
});
