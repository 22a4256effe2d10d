import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, createServer } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createTestContext, type TestContext } from '../test/harness';
import { signAccessToken } from '../http/auth';
import { accountsWithDemoPassword, DEMO_ACCOUNTS, seedDemo } from '@portal/seeds';

/**
 * The ops commands as ops staff run them: real processes (tsx) against a real database.
 * Arguments are checked in one line (exit 2, no SQL, no stack), --help on each, progress and every refused
 * row reported, demo data only with --demo, and a production start that refuses demo passwords and test mode.
 */
const ROOT = join(__dirname, '../../../..');
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const DEMO_PASSWORD = 'Portal#2026';
let t: TestContext;
let dir: string;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}
/** Runs a script with tsx; `until`: stop it (SIGTERM) once stdout+stderr matches, or once `until` resolves true (polled). */
function run(script: string, args: string[], env: Record<string, string> = {}, until?: RegExp | (() => Promise<boolean>)): Promise<Ran> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, [TSX, script, ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_URL: t.config.databaseUrl!,
        BCRYPT_COST: '4',
        LOG_LEVEL: 'info',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    const check = () => {
      if (until instanceof RegExp && until.test(stdout + stderr)) child.kill('SIGTERM');
    };
    let timer: NodeJS.Timeout | undefined;
    if (typeof until === 'function') {
      const poll = async () => {
        if (await until()) child.kill('SIGTERM');
        else timer = setTimeout(poll, 500);
      };
      timer = setTimeout(poll, 500);
      child.on('close', () => clearTimeout(timer));
    }
    child.stdout.on('data', (d) => {
      stdout += d;
      check();
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      check();
    });
    child.on('close', (code) => ok({ code, stdout, stderr }));
  });
}
/** A free TCP port on 127.0.0.1. */
const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
/** Whether the portal on `port` answers its health check. */
const healthy = (port: number) => async () =>
  fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
    (r) => r.ok,
    () => false,
  );

const noSqlNoStack = (text: string) => {
  expect(text).not.toMatch(/\b(select|insert into|update "|delete from)\b/i);
  expect(text).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
};

const STORES_HEADER = 'Store,Name,Store Status,Address,City,State,Zip Code,latitude,longitude';
const PRODUCTS_HEADER =
  'Item Number,Category Name,Item Description,Vendor,Vendor Name,Bottle Volume (ml),Pack,Age,Proof,List Date,UPC,State Bottle Retail';
const product = (code: string, price = '12.50') => `${code},VODKA,Test Vodka ${code},1,Test Vendor,750,12,,80,2022-11-01,,${price}`;

beforeAll(async () => {
  t = await createTestContext();
  dir = mkdtempSync(join(tmpdir(), 'ops-cli-'));
});
afterAll(async () => {
  await t.close();
});

describe('ops CLIs: --help and one-line argument errors', () => {
  it('when --help is asked of each command, then it prints its usage and exits 0', async () => {
    const runs = await Promise.all([
      run('scripts/db.ts', ['--help']),
      run('scripts/db.ts', ['seed', '--help']),
      run('scripts/db.ts', ['import', '-h']),
      run('scripts/db.ts', ['migrate', '--help']),
      run('scripts/credentials-add.ts', ['--help']),
      run('seeds/import.ts', ['--help']),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^usage: /);
    }
    expect(runs[1].stdout).toContain('--demo');
    expect(runs[2].stdout).toContain('--board N');
    expect(runs[4].stdout).toContain('--password-stdin');
  }, 120_000);

  it.each([
    [
      'scripts/db.ts',
      ['import', '--board', 'abc'],
      '--board must be a board number, a whole number from 1 to 2147483647 (got "abc") (see --help)',
    ],
    ['scripts/db.ts', ['import', '--board'], '--board needs a value (see --help)'],
    ['scripts/db.ts', ['import', '--board-name', ''], '--board-name must be 1 to 200 characters (got an empty name) (see --help)'],
    ['scripts/db.ts', ['import', 'no-such-file.csv'], 'no such file: no-such-file.csv (see --help)'],
    ['scripts/db.ts', ['seed', '--demo', '--lock-demo'], '--demo and --lock-demo contradict each other: pick one (see --help)'],
    ['scripts/db.ts', ['seed', '--bogus'], 'unknown option --bogus (see --help)'],
    ['scripts/db.ts', ['seed', '--synthetic', 'users=ten'], '--synthetic: "users=ten" is not kind=count (e.g. users=100000) (see --help)'],
    ['scripts/db.ts', ['frobnicate'], 'unknown command "frobnicate": expected migrate, rollback, seed or import (see --help)'],
    [
      'scripts/credentials-add.ts',
      ['--store', 'abc', '--env', 'test', '--username', 'u', '--password', 'p'],
      '--store must be a store id, a whole number ≥ 1 (got "abc") (see --help)',
    ],
    [
      'scripts/credentials-add.ts',
      ['--store', '2190', '--env', 'live', '--username', 'u', '--password', 'p'],
      '--env must be test or prod (got "live") (see --help)',
    ],
    ['scripts/credentials-add.ts', ['--store', '2190'], '--env must be test or prod (got nothing) (see --help)'],
    ['seeds/import.ts', ['--board=-3'], '--board must be a board number, a whole number from 1 to 2147483647 (got "-3") (see --help)'],
    ['seeds/import.ts', ['--board', '-3'], '--board needs a value (one starting with "-" is written --board=-…) (see --help)'],
  ])(
    'when %s %j is run, then one line says what is wrong and it exits 2',
    async (script, args, line) => {
      const r = await run(script, args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([line]);
      noSqlNoStack(r.stderr);
    },
    60_000,
  );

  it('when a store does not exist, then credentials:add says so in one line and exits 1', async () => {
    const r = await run('scripts/credentials-add.ts', ['--store', '99999', '--env', 'test', '--username', 'u', '--password', 'p'], {
      PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32),
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('store 99999 does not exist');
    expect(await t.db('payment_credentials').where({ store_id: 99999 }).first()).toBeUndefined();
  }, 60_000);
});

describe('db:import talks', () => {
  it('when a file has several bad rows, then every one is reported, nothing is written and it exits 1', async () => {
    const path = join(dir, 'bad-products.csv');
    writeFileSync(
      path,
      [PRODUCTS_HEADER, product('770001'), product('770002', 'abc'), product('7x3'), product('770004', '1.234')].join('\n') + '\n',
    );
    const r = await run('scripts/db.ts', ['import', path]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      'import refused, nothing of bad-products.csv was written:',
      'bad-products.csv: 3 rows refused:',
      '  bad-products.csv:3: State Bottle Retail: "abc" is not an amount in dollars (e.g. 23.87)',
      '  bad-products.csv:4: Item Number: "7x3" is not a numeric code',
      '  bad-products.csv:5: State Bottle Retail: "1.234" is not an amount in dollars (e.g. 23.87)',
    ]);
    expect(r.stdout).toMatch(/\[1\/1\] bad-products\.csv: failed · 4 rows · \d+% · \d+\.\d s · 3 refused/);
    noSqlNoStack(r.stderr);
    expect(await t.db('items').where({ code: '770001' }).first()).toBeUndefined();
  }, 60_000);

  it('when good files are imported, then each prints its progress (rows, %, elapsed) and a summary', async () => {
    const stores = join(dir, 'stores.csv');
    const products = join(dir, 'products.csv');
    writeFileSync(stores, [STORES_HEADER, '990301,Test Store 990301,A,1 Main St,AMES,IA,50010,42.0,-93.6'].join('\n') + '\n');
    writeFileSync(products, [PRODUCTS_HEADER, product('771001'), product('771002')].join('\n') + '\n');
    const r = await run('scripts/db.ts', ['import', products, stores]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('importing 2 files');
    expect(r.stdout).toMatch(/\[1\/2\] stores\.csv: reading · 0 rows · 0% · \d+\.\d s/);
    expect(r.stdout).toMatch(/\[2\/2\] products\.csv: done · 2 rows · 100% · \d+\.\d s/);
    expect(r.stdout).toContain('products.csv (products): 2 rows, 2 inserted, 0 updated, 0 unchanged');
    expect(r.stdout).toMatch(/import finished in \d+\.\d s/);
    expect(Number((await t.db('items').whereIn('code', ['771001', '771002']).count<{ n: number }[]>('* as n').first())?.n)).toBe(2);
  }, 60_000);
});

describe('demo data only by explicit choice', () => {
  // Each test has a database of its own (`t` stands for it during the test): with or without demo accounts
  // as the test says, whatever ran before. A catalog must be there, or a start would import the real one
  // first (minutes on this machine).
  let shared: TestContext;
  beforeEach(async () => {
    shared = t;
    t = await createTestContext();
    const [board] = await t
      .db('boards')
      .insert({ board_number: 77, name: 'CLI test board' })
      .onConflict('board_number')
      .merge()
      .returning('id');
    await t
      .db('stores')
      .insert({ id: 990401, warehouse_code: 'IA-990401', name: 'CLI Test Store', board_id: board.id })
      .onConflict('id')
      .ignore();
    await t
      .db('items')
      .insert({ board_id: board.id, code: '772001', name: 'CLI Test Gin', retail: '9.99', bottles_per_case: 12 })
      .onConflict(['board_id', 'code'])
      .ignore();
  });
  afterEach(async () => {
    await t.close();
    t = shared;
  });
  /** The demo data as `db:seed --demo` leaves it: the four accounts with the demo password. */
  const seedDemoData = () => seedDemo(t.db, { password: DEMO_PASSWORD, bcryptCost: 4 });

  it('when db:seed runs without --demo, then it shows its steps and creates no demo account', async () => {
    const r = await run('scripts/db.ts', ['seed']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[1\/3\] migrations: up to date · \d+\.\d s$/m);
    expect(r.stdout).toMatch(/^\[2\/3\] reference data: permissions and roles · /m);
    expect(r.stdout).toMatch(/^\[3\/3\] real catalog: already loaded \(\d+ stores\), skipped/m);
    expect(r.stdout).toContain('demo data: not loaded (add --demo');
    expect(
      await t
        .db('users')
        .whereIn(
          'email',
          DEMO_ACCOUNTS.map((a) => a.email),
        )
        .first(),
    ).toBeUndefined();
  }, 60_000);

  it('when db:seed --demo runs in production, then it is refused in one line', async () => {
    const r = await run('scripts/db.ts', ['seed', '--demo'], {
      NODE_ENV: 'production',
      JWT_SECRET: 'ops-cli-test-8e2c4a6f1d3b5e7c9a0f2d4b6e8c1a3f',
      PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32),
      BCRYPT_COST: '12',
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'db:seed --demo is refused when NODE_ENV=production: the demo accounts have a public password (see --help)',
    );
  }, 60_000);

  it('when db:seed --demo runs, then the four demo accounts exist with the demo password', async () => {
    const r = await run('scripts/db.ts', ['seed', '--demo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[4\/4\] demo data: created/m);
    expect(await accountsWithDemoPassword(t.db, [DEMO_PASSWORD])).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
  }, 60_000);

  const PROD = {
    NODE_ENV: 'production',
    JWT_SECRET: 'ops-cli-prod-3a5c7e9f1b2d4f6a8c0e2b4d6f8a1c3e',
    PAYMENT_CREDENTIALS_KEY: 'cd'.repeat(32),
    BCRYPT_COST: '12',
    PORT: '0',
    LOG_FORMAT: 'json',
  };

  it('when a production start finds demo accounts with the demo password, then it refuses in one line with the fix', async () => {
    await seedDemoData();
    const r = await run('apps/api/src/main.ts', [], PROD, /listening/);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `portal failed to start: Refusing to start in production: ${DEMO_ACCOUNTS.map((a) => a.email)
        .sort()
        .join(', ')} still have the public demo password. Fix: DATABASE_URL=… npm run db:seed -- --lock-demo`,
    );
    expect(r.stdout).not.toMatch(/listening/);
  }, 120_000);

  it('when a production start asks for payment test mode, then it refuses before touching the database', async () => {
    const r = await run('apps/api/src/main.ts', [], { ...PROD, PAYMENT_TEST_MODE: 'true' }, /listening/);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('Refusing to start in production with PAYMENT_TEST_MODE=true');
  }, 60_000);

  it('when the demo accounts are locked, then nobody has the demo password and the production start serves', async () => {
    await seedDemoData();
    const r = await run('scripts/db.ts', ['seed', '--lock-demo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[4\/4\] demo accounts locked \(random password, deactivated, signed out\): admin@example\.com, /m);
    expect(await accountsWithDemoPassword(t.db, [DEMO_PASSWORD])).toEqual([]);
    expect(
      (
        await t
          .db('users')
          .whereIn(
            'email',
            DEMO_ACCOUNTS.map((a) => a.email),
          )
          .select('is_active')
      ).every((u) => !u.is_active),
    ).toBe(true);
    const port = await freePort();
    let served = false;
    const start = await run('apps/api/src/main.ts', [], { ...PROD, PORT: String(port) }, async () => (served = await healthy(port)()));
    expect(served).toBe(true);
    expect(start.stderr).not.toContain('failed to start');
  }, 120_000);

  it('when a production start is stopped (SIGTERM) with a request in flight on a keep-alive connection and a live stream open, then the answer says Connection: close, the stream ends and it exits 0 without the forced exit', async () => {
    await seedDemo(t.db, { password: `Rand#${randomUUID()}`, bcryptCost: 4 }); // not the public password: a production start serves
    const port = await freePort();
    const api = spawn(process.execPath, [TSX, 'apps/api/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.config.databaseUrl!, LOG_LEVEL: 'info', ...PROD, PORT: String(port) },
    });
    let log = '';
    api.stdout.on('data', (d) => (log += d));
    api.stderr.on('data', (d) => (log += d));
    const exited = new Promise<number | null>((ok) => api.on('close', (code) => ok(code)));
    for (let i = 0; i < 120 && !(await healthy(port)()); i++) await new Promise((ok) => setTimeout(ok, 500));
    try {
      // A signed-in user's live stream (a session row and a token signed with the start's secret).
      const user = (await t.db('users').where({ email: DEMO_ACCOUNTS[0].email }).first('id', 'email'))!;
      const sid = randomUUID();
      await t.db('auth_sessions').insert({
        user_id: user.id,
        family_id: sid,
        token_hash: createHash('sha256').update(randomUUID()).digest('hex'),
        expires_at: new Date(Date.now() + 3600_000),
      });
      const token = signAccessToken(PROD.JWT_SECRET, 600, { sub: user.id, email: user.email, sid }).token;
      const stream = await fetch(`http://127.0.0.1:${port}/api/v1/me/events`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      let received = '';
      while (!/event: ?ready/.test(received)) received += new TextDecoder().decode((await reader.read()).value);

      // A request whose body has not fully arrived: in flight when the signal comes.
      const socket = connect(port, '127.0.0.1');
      await new Promise((ok) => socket.once('connect', ok));
      let answer = '';
      socket.on('data', (d) => (answer += d));
      const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
      socket.write(
        `POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      );
      await new Promise((ok) => setTimeout(ok, 300));
      api.kill('SIGTERM');
      await new Promise((ok) => setTimeout(ok, 300));
      socket.write(body.slice(5));
      const socketClosed = new Promise((ok) => socket.once('close', ok));

      const streamEnded = reader.read().then(
        async function drain(r): Promise<boolean> {
          return r.done ? true : drain(await reader.read());
        },
        () => true,
      );
      expect(await streamEnded).toBe(true);
      await socketClosed;
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(await exited).toBe(0);
      expect(log).toContain('"msg":"stopped"');
    } finally {
      api.kill('SIGKILL');
    }
  }, 120_000);
});
