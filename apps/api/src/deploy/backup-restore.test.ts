import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { createDb, migrateLatest, type Db } from '../db/knex';
import { createLogger } from '../logger';
import { placeInStoreOrder } from '../modules/orders/test-support';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../test/fixtures';
import { withDatabase } from '../test/global-setup';
import { createTestContext, loginAs, type TestContext } from '../test/harness';

/**
 * README "Operating it", backup and restore, tried as written: a database with orders is dumped with
 * `pg_dump --format=custom --no-owner --no-privileges`, restored with `pg_restore --no-owner --no-privileges
 * --exit-on-error` into a new, empty database, and a portal on the restored database serves the same orders
 * to the same buyer, who signs in with the same password; nothing is left to migrate. Needs pg_dump and
 * pg_restore at least as new as the server (PATH, else /usr/lib/postgresql/<version>/bin): without them the
 * test is skipped and says so.
 */

/** The major version of a PostgreSQL client tool (`pg_dump (PostgreSQL) 15.20 …` → 15), or undefined when it does not run. */
function major(tool: string): number | undefined {
  const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  const m = r.status === 0 ? /\(PostgreSQL\) (\d+)/.exec(r.stdout) : null;
  return m ? Number(m[1]) : undefined;
}

/** pg_dump and pg_restore of one installation, the newest found on PATH or under /usr/lib/postgresql. */
function findPgTools(): { dump: string; restore: string; major: number } | undefined {
  const dirs = [''];
  if (existsSync('/usr/lib/postgresql')) dirs.push(...readdirSync('/usr/lib/postgresql').map((v) => join('/usr/lib/postgresql', v, 'bin')));
  const found = dirs
    .map((d) => ({ dump: d ? join(d, 'pg_dump') : 'pg_dump', restore: d ? join(d, 'pg_restore') : 'pg_restore' }))
    .map((t) => ({ ...t, major: major(t.dump) }))
    .filter((t): t is { dump: string; restore: string; major: number } => t.major !== undefined && major(t.restore) === t.major);
  return found.sort((a, b) => b.major - a.major)[0];
}

const tools = findPgTools();
if (!tools) console.warn('pg_dump/pg_restore not found (PATH, /usr/lib/postgresql/*/bin): the backup and restore test is skipped');
const itWithTools = tools ? it : it.skip;

let t: TestContext;
let fx: Fixtures;
let restored: Db | undefined;
const restoredName = `portal_restore_${process.env.PORTAL_TEST_RUN}_${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'portal-backup-'));

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
}, 60_000);
afterAll(async () => {
  await restored?.destroy();
  await t.close();
  const admin = createDb(withDatabase(process.env.PORTAL_TEST_SERVER!, 'postgres'), { max: 1 });
  await admin.raw(`DROP DATABASE IF EXISTS ${restoredName} WITH (FORCE)`);
  await admin.destroy();
  rmSync(work, { recursive: true, force: true });
});

describe('backup and restore with pg_dump and pg_restore (README "Operating it")', () => {
  itWithTools(
    'when a database with orders is dumped and restored into a new database, then the portal there serves the same orders to the same buyer',
    async () => {
      const server = (await t.db.raw('SHOW server_version_num')).rows[0].server_version_num as string;
      if (tools!.major < Math.floor(Number(server) / 10000)) {
        console.warn(`pg_dump ${tools!.major} is older than the server (${server}): the backup and restore test is skipped`);
        return;
      }
      for (let i = 0; i < 3; i++) await placeInStoreOrder(t, fx, FIXTURE_STORES.central, { quantity: i + 1 });
      const buyerBefore = await loginAs(t.app, fx.users.buyer.email);
      const before = await request(t.app).get('/api/v1/orders').set('authorization', `Bearer ${buyerBefore}`);
      expect(before.status).toBe(200);
      expect(before.body.items).toHaveLength(3);

      const dump = join(work, 'portal.dump');
      execFileSync(tools!.dump, ['--format=custom', '--no-owner', '--no-privileges', `--file=${dump}`, t.config.databaseUrl!]);
      const admin = createDb(withDatabase(process.env.PORTAL_TEST_SERVER!, 'postgres'), { max: 1 });
      await admin.raw(`CREATE DATABASE ${restoredName}`);
      await admin.destroy();
      const restoredUrl = withDatabase(process.env.PORTAL_TEST_SERVER!, restoredName);
      execFileSync(tools!.restore, ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${restoredUrl}`, dump]);

      restored = createDb(restoredUrl, { max: 4 });
      await expect(migrateLatest(restored)).resolves.toEqual([]);
      const config = loadConfig({ ...process.env, ...configEnv(t), DATABASE_URL: restoredUrl });
      const app = createApp({ config, db: restored, logger: createLogger('silent'), mailer: { enqueue: async () => undefined } });
      expect((await request(app).get('/api/v1/health/ready')).body).toEqual({ status: 'ready', database: 'up', migrations: 'current' });
      const buyerAfter = await loginAs(app, fx.users.buyer.email);
      const after = await request(app).get('/api/v1/orders').set('authorization', `Bearer ${buyerAfter}`);
      expect(after.status).toBe(200);
      expect(after.body).toEqual(before.body);
      const one = before.body.items[0] as { id: number };
      const detail = await request(app).get(`/api/v1/orders/${one.id}`).set('authorization', `Bearer ${buyerAfter}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(
        (await request(t.app).get(`/api/v1/orders/${one.id}`).set('authorization', `Bearer ${buyerBefore}`)).body,
      );
    },
    120_000,
  );
});

/** The test context's settings as environment variables (the second portal runs with the same ones). */
function configEnv(ctx: TestContext): Record<string, string> {
  return {
    NODE_ENV: 'test',
    BCRYPT_COST: String(ctx.config.bcryptCost),
    JWT_SECRET: ctx.config.jwtSecret,
    PAYMENT_TEST_MODE: 'true',
    DATA_DIR: ctx.config.dataDir,
  };
}
