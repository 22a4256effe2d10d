import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createDb, type Db } from '../db/knex';
import { withDatabase } from '../test/global-setup';

/**
 * The production image runs every ops command compiled, with plain node and nothing but a database URL
 * (issue 24 §3): `docker run -e DATABASE_URL=… liquor-portal db:migrate` is `portal db:migrate` in the image,
 * the entry point scripts/portal running dist/ops/*.js. Here the same entry point runs the bundles that
 * scripts/build-api.mjs writes (into a folder of their own), with NODE_ENV=production as the image sets it,
 * on a database of their own: no tsx, no JWT or payment key.
 */
const ROOT = join(__dirname, '../../../..');
const home = join(ROOT, '.data', `ops-image-test-${process.pid}`);
const fixtures = join(ROOT, 'apps/api/src/test/fixtures');
const name = `portal_ops_${process.env.PORTAL_TEST_RUN}_${process.pid}`;
const url = withDatabase(process.env.PORTAL_TEST_SERVER!, name);
let db: Db;

/** `portal <args…>` as the image runs it: only PATH, PORTAL_HOME, NODE_ENV=production and `env`. */
function portal(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync('sh', [join(ROOT, 'scripts/portal'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, PORTAL_HOME: home, NODE_ENV: 'production', DATABASE_URL: url, ...env },
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}
const count = async (table: string) => Number((await db(table).count<{ n: number }[]>('* as n'))[0].n);

const describeSh = process.platform === 'win32' ? describe.skip : describe;

describeSh('ops commands from the production image’s entry point (scripts/portal, compiled bundles)', () => {
  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build-api.mjs'), '--outdir', join(home, 'dist')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    const admin = createDb(withDatabase(process.env.PORTAL_TEST_SERVER!, 'postgres'), { max: 1 });
    await admin.raw(`CREATE DATABASE ${name}`);
    await admin.destroy();
    db = createDb(url, { max: 2 });
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    rmSync(home, { recursive: true, force: true });
  });

  it('when db:migrate, db:rollback (refused, then with --yes-i-have-a-backup) and db:migrate run on an empty database with only DATABASE_URL, then the schema comes, goes and comes back', async () => {
    const first = portal(['db:migrate']);
    expect(first).toMatchObject({ code: 0 });
    expect(first.out).toMatch(/applied \d+ migrations/);
    const applied = await count('knex_migrations');
    expect(applied).toBeGreaterThan(10);

    // Production refuses without the operator's word that a backup exists (issue 23 §6), and changes nothing.
    const refused = portal(['db:rollback']);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/would roll back \d+ migrations/);
    expect(await count('knex_migrations')).toBe(applied);

    const rolled = portal(['db:rollback', '--yes-i-have-a-backup']);
    expect(rolled.out).toMatch(/rolled back \d+ migrations/);
    expect(rolled.code).toBe(0);
    expect(await count('knex_migrations')).toBe(0);
    expect((await db.raw(`SELECT to_regclass('public.orders') AS t`)).rows[0].t).toBeNull();

    expect(portal(['db:migrate'])).toMatchObject({ code: 0 });
    expect(await count('knex_migrations')).toBe(applied);
    expect(portal(['db:migrate']).out).toContain('already up to date');
  }, 120_000);

  it('when db:import, db:seed and users:invite run, then the files are imported, reference data is there and the invitation link is printed', async () => {
    const imported = portal(['db:import', ...['stores.csv', 'products.csv', 'store_items.csv'].map((f) => join(fixtures, f))]);
    expect(imported).toMatchObject({ code: 0 });
    expect(await count('stores')).toBe(5);

    expect(portal(['db:seed'])).toMatchObject({ code: 0 });
    expect(await count('roles')).toBeGreaterThan(0);

    const invited = portal(['users:invite', '--email', 'ops@example.com', '--role', 'super_admin'], {
      PUBLIC_URL: 'https://portal.example.com',
    });
    expect(invited.code).toBe(0);
    expect(invited.out).toMatch(/https:\/\/portal\.example\.com\/invitation\/accept\?inv=[A-Za-z0-9_-]{20,}/);
    expect(await db('invitations').where({ email: 'ops@example.com' }).first('id')).toBeDefined();
  }, 120_000);

  it('when a command is refused or unknown, then it exits 2 with one line and no stack', () => {
    const demo = portal(['db:seed', '--demo']);
    expect(demo.code).toBe(2);
    expect(demo.out).toContain('refused when NODE_ENV=production');
    const unknown = portal(['db:nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain("portal: unknown command 'db:nope'");
    expect(`${demo.out}${unknown.out}`).not.toMatch(/\n\s+at /);
  });
});
