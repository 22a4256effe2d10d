import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createTestContext, type TestContext } from '../test/harness';
import { seedFixtures } from '../test/fixtures';

/**
 * `db:rollback` in production (issue 23 §6): it prints what it would drop (the migrations, the tables with
 * their rows, the columns) and refuses unless --yes-i-have-a-backup is given; nothing changes until then.
 */
const ROOT = join(__dirname, '../../../..');
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

const PROD = {
  NODE_ENV: 'production',
  JWT_SECRET: 'rollback-test-5c1e9a7f3b2d8e4c6a0f1b9d7e3c5a2f',
  PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32),
  BCRYPT_COST: '12',
};

function rollback(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [TSX, 'scripts/db.ts', 'rollback', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: t.config.databaseUrl!, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
const migrations = async () => Number((await t.db('knex_migrations').count<{ n: string }[]>('* as n'))[0].n);
const rowsOf = async (table: string) => Number((await t.db(table).count<{ n: string }[]>('* as n'))[0].n);

describe('db:rollback in production', () => {
  it('when it runs with --all and no --yes-i-have-a-backup, then it prints every table it would drop with its rows and refuses, changing nothing', async () => {
    const before = await migrations();
    const items = await rowsOf('items');
    const r = await rollback(['--all'], PROD);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'db:rollback --all is refused when NODE_ENV=production: take a backup (pg_dump), then run it again with --yes-i-have-a-backup',
    );
    expect(r.stdout).toContain(`db:rollback --all would roll back ${before} migrations:`);
    expect(r.stdout).toContain('  20261121000100_create_identity_access');
    expect(r.stdout).toMatch(/and drop \d+ tables holding [\d,]+ rows:/);
    expect(r.stdout).toContain(`  items (${items.toLocaleString('en-US')} row${items === 1 ? '' : 's'})`);
    expect(r.stdout).toContain('  users (');
    expect(await migrations()).toBe(before);
    expect(await rowsOf('items')).toBe(items);
  }, 60_000);

  it('when it runs without --all, then it names the last batch and what that drops, and refuses', async () => {
    const r = await rollback([], PROD);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^db:rollback would roll back \d+ migrations?:/);
    expect(r.stderr).toContain('--yes-i-have-a-backup');
  }, 60_000);

  it('when --yes-i-have-a-backup is given, then it prints the plan and rolls back', async () => {
    const r = await rollback(['--all', '--yes-i-have-a-backup'], PROD);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('would roll back');
    expect(r.stdout).toMatch(/rolled back \d+ migrations/);
    expect(await migrations()).toBe(0);
    expect(await t.db.schema.hasTable('items')).toBe(false);
  }, 60_000);
});
