import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { startNotifications, type NotificationListener } from '../../db/notifications';
import { principalChanges } from '../access/principal-cache';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { storeItems, type StoreItem } from './test-support';

/**
 * Round trips to PostgreSQL per request of the orders benchmark's loop (bench/orders.ts, issue 29 §1): every
 * statement (BEGIN and COMMIT included) the API sends while answering GET /carts/current, POST /carts/{id}/items,
 * POST /checkout-sessions and POST /orders {in_store} as a buyer like the benchmark's (one outlet_buyer grant at
 * DEMO-DSM-01). The mailer stands in for the production outbox: one statement on the caller's connection, as
 * pg-boss's `send` with the `db` option is. The notification listener runs, as in production: the caller's principal
 * is loaded by the first request and reused by the others (route.ts, principal-cache.ts). Counts are deterministic;
 * the bounds hold them from growing back.
 */
let t: TestContext;
let fx: Fixtures;
let token: string;
let items: StoreItem[];
const statements: string[] = [];
let counting = false;
let listener: NotificationListener;

/** The most statements each request of the loop may send (measured: see the table printed by the test). */
const BOUNDS = {
  // Before issue 29 §1: 5, 6, 8 and 24 (55 a loop); then 2, 3, 3 and 12 (26), each with the principal's statement,
  // now reused (20). The cart created and read with the access rule.
  'GET /carts/current': 1,
  // Cart + access rule + item; the line written and the lines read back.
  'POST /carts/{id}/items': 2,
  // Cart + access rule + pending card order + lines; the session (a Pickup: no transaction).
  'POST /checkout-sessions': 2,
  // The key claimed; BEGIN; session + cart locked; the order's reads; the order written (lines, session used, cart
  // checked out); the mail outbox in its savepoint (3); the order event; COMMIT; the key's answer.
  'POST /orders': 11,
} as const;

beforeAll(async () => {
  t = await createTestContext({
    mailer: { enqueue: async (db) => void (await db.raw('SELECT 1 AS outbox_insert')) },
  });
  fx = await seedFixtures(t.db);
  listener = startNotifications(t.config.databaseUrl!, t.ctx.logger, [principalChanges]);
  await listener.ready;
  const role = (await t.db('roles').where({ code: 'outlet_buyer' }).first('id'))!;
  const [u] = await t.db('users').insert({ email: 'round-trips@example.com', password_hash: 'x' }).returning('id');
  await t.db('role_grants').insert({ user_id: u.id, role_id: role.id, scope_type: 'outlet', outlet_id: fx.outlets.dsm });
  token = tokenFor(t, { id: u.id, email: 'round-trips@example.com' });
  items = await storeItems(t.db, FIXTURE_STORES.central, 6);
  t.db.on('query', (q: { sql: string }) => {
    if (counting) statements.push(q.sql);
  });
  // The session row of tokenFor is inserted before the first request runs: a warm-up request waits for it.
  await request(t.app).get('/api/v1/health').expect(200);
});
afterAll(async () => {
  await listener.stop();
  await t.close();
});

/** Sends one request of the loop and answers its body and the statements it sent. */
async function counted(method: 'get' | 'post', path: string, body?: object, headers: Record<string, string> = {}) {
  statements.length = 0;
  counting = true;
  let req = request(t.app)[method](`/api/v1${path}`).set('Authorization', `Bearer ${token}`);
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  const res = await (body ? req.send(body) : req);
  counting = false;
  return { res, sql: [...statements] };
}

/** One loop of the benchmark; answers the statement count of each request. */
async function loop(offset: number) {
  const counts: Record<string, number[]> = {};
  const log: string[] = [];
  const add = (k: string, sql: string[]) => {
    (counts[k] ??= []).push(sql.length);
    log.push(`${k}:`, ...sql.map((q) => `  ${q.replace(/\s+/g, ' ').slice(0, 160)}`));
  };
  const cur = await counted('get', `/carts/current?outletId=${fx.outlets.dsm}&storeId=${FIXTURE_STORES.central}`);
  expect(cur.res.status).toBe(200);
  add('GET /carts/current', cur.sql);
  for (let i = 0; i < 3; i++) {
    const r = await counted('post', `/carts/${cur.res.body.id}/items`, { itemCode: items[(offset + i) % items.length].code });
    expect([200, 201]).toContain(r.res.status);
    add('POST /carts/{id}/items', r.sql);
  }
  const s = await counted('post', '/checkout-sessions', { cartId: cur.res.body.id });
  expect(s.res.status).toBe(201);
  add('POST /checkout-sessions', s.sql);
  const o = await counted(
    'post',
    '/orders',
    { checkoutToken: s.res.body.token, paymentMethod: 'in_store' },
    { 'Idempotency-Key': randomUUID() },
  );
  expect(o.res.status).toBe(201);
  add('POST /orders', o.sql);
  return { counts, log };
}

it('when a buyer runs the orders benchmark loop, then each request stays within its statement budget', async () => {
  await loop(0); // the first loop creates the cart
  const { counts, log } = await loop(3);
  const table = Object.entries(counts).map(([k, v]) => `${k.padEnd(26)} ${v.join(', ')}`);
  const total = Object.values(counts)
    .flat()
    .reduce((a, b) => a + b, 0);
  console.log(`statements per request:\n${table.join('\n')}\nper loop: ${total}\n${log.join('\n')}`);
  for (const [k, bound] of Object.entries(BOUNDS)) for (const n of counts[k]) expect(n).toBeLessThanOrEqual(bound);
});
