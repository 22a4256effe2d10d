import { spawn } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { createTestContext, loginAs, type TestContext } from '../../test/harness';
import { seedFixtures, type Fixtures } from '../../test/fixtures';

/** `npm run users:invite` run as ops would: a child process against the test database. */
const ROOT = join(__dirname, '../../../../..');
let t: TestContext;
let f: Fixtures;
beforeAll(async () => {
  t = await createTestContext();
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: process.env.TMPDIR ?? '/tmp' };
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/users-invite.ts'), ...args], {
      cwd: ROOT,
      env: { ...base, DATABASE_URL: t.config.databaseUrl!, DATA_DIR: t.config.dataDir, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
const noLeak = (s: string) => expect(s).not.toMatch(/select |insert |\bat .*\.(js|ts):\d+|Error:/i);

describe('npm run users:invite', () => {
  it('when asked for --help, then it prints the usage and exits 0', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('usage: npm run users:invite -- --email <address> --role <code>');
  }, 60_000);

  it('when the role is unknown, then one line naming it and the known roles, exit 1, no invitation', async () => {
    const r = await cli(['--email', 'x-cli@example.com', '--role', 'no_such_role']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      'users:invite: unknown role "no_such_role"; known roles: super_admin, board_admin, store_manager, store_staff, outlet_manager, outlet_buyer, outlet_viewer',
    ]);
    noLeak(r.stderr);
    expect(await t.db('invitations').where({ email: 'x-cli@example.com' }).first()).toBeUndefined();
  }, 60_000);

  it('when an outlet is unknown, or missing for a role other than super_admin, then one line and a non-zero exit', async () => {
    const unknown = await cli(['--email', 'x-cli@example.com', '--role', 'outlet_buyer', '--outlet', 'NOPE-1']);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'users:invite: unknown outlet "NOPE-1" (give an outlet id or outlet code)']);
    const missing = await cli(['--email', 'x-cli@example.com', '--role', 'outlet_buyer']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    noLeak(unknown.stderr + missing.stderr);
    expect(await t.db('invitations').where({ email: 'x-cli@example.com' }).first()).toBeUndefined();
  }, 90_000);

  it('when run with NODE_ENV=production for a super administrator without an outlet, then it queues the mail and prints a link that makes a super administrator', async () => {
    const email = 'ops-cli@example.com';
    const r = await cli(['--email', email, '--role', 'super_admin'], { NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example.com/' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const token = /https:\/\/portal\.example\.com\/invitation\/accept\?inv=([A-Za-z0-9_-]{43})/.exec(r.stdout)?.[1];
    expect(token).toBeDefined();
    const row = await t.db('invitations').where({ email }).first();
    expect(row).toMatchObject({ invited_by: null, outlet_ids: [], first_name: 'ops-cli', last_name: 'Administrator' });
    const job = await t.db.raw(`SELECT data FROM pgboss.job WHERE name = 'mail' AND data->>'to' = ?`, [email]);
    expect(job.rows).toHaveLength(1);
    expect(job.rows[0].data).toMatchObject({ template: 'invitation' });
    expect(job.rows[0].data.text).toContain(`inv=${token}`);
    expect(await t.db('audit_log').where({ action: 'invitation.created', actor_email: 'system', entity_id: row!.id }).first()).toBeTruthy();

    const acc = await request(t.app)
      .post(`/api/v1/invitations/${token}/accept`)
      .send({ firstName: 'Ops', lastName: 'Admin', password: 'Bootstrap#2026x', confirmPassword: 'Bootstrap#2026x' });
    expect(acc.status).toBe(200);
    const bearer = await loginAs(t.app, email, 'Bootstrap#2026x');
    const granted = await request(t.app).get('/api/v1/me/permissions/bcc.users.super_admin').set('Authorization', `Bearer ${bearer}`);
    expect(granted.body).toEqual({ granted: true });
  }, 90_000);

  it('when outlets are given by code (several after one --outlet), then the invitation carries them', async () => {
    const r = await cli([
      '--email',
      'Buyer-CLI@Example.com',
      '--role',
      'outlet_buyer',
      '--outlet',
      'DEMO-DSM-01',
      String(f.outlets.ams),
      '--first-name',
      'Bea',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/invitation\/accept\?inv=/);
    const row = await t.db('invitations').where({ email: 'buyer-cli@example.com' }).first();
    expect(row).toMatchObject({ first_name: 'Bea', last_name: 'User', outlet_ids: [f.outlets.dsm, f.outlets.ams] });
  }, 60_000);
});
