import { createHash, randomBytes, randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import request from 'supertest';
import { DEFAULT_ROLES, PERMISSIONS as P } from '@portal/contracts';
import { grantRole, seedReference } from '@portal/seeds';
import { routeTable } from '../routes';
import { expressPath, type Route } from '../http/route';
import type { RowKind } from '../modules/access/rows';
import { createTestContext, FIXTURE_PASSWORD, tokenFor, type TestContext } from './harness';

/**
 * The scope matrix of ARCHITECTURE §11, generated — not hand-listed — from the route table: every route × every
 * principal × every row of the kind its declared scope names (rows belonging to customer A, customer B, store S1,
 * store S2). Each cell's expected answer comes from the model below, written from §11 on its own (what a grant
 * at a board, a store or an outlet covers; memberships; ownership), and is compared with what the running API
 * answers over HTTP: allowed = neither 401, 403 nor 404 (nor a 5xx); refused = 403 or 404. A route declared
 * tomorrow is in the matrix the day it lands; a new row kind fails the matrix until the model and a row
 * factory know it.
 *
 * Topology: board 1 runs store S1, board 2 store S2. Customer A (outlet A, board 1) orders from S1 and S2;
 * customer B (outlet B, board 2) from S2. Writes act on rows made fresh for their cell; a body the route cannot
 * read is sent where the route checks its row before its body (so the refusal, not the validation, is seen).
 */

type Owner = 'A' | 'B' | 'S1' | 'S2';
interface Grant {
  role: string;
  type: 'global' | 'board' | 'store' | 'outlet';
  id: number | null;
}
interface Principal {
  name: string;
  kind: 'user' | 'key';
  grants: Grant[];
  userId?: string;
  token?: string;
  key?: { storeId: number | null; boardId: number | null };
}
/** A row a route acts on: its owner, and every id its routes' paths and bodies may need. */
type Row = { owner: Owner } & Record<string, unknown>;

let t: TestContext;
const ids = { b1: 0, b2: 0, S1: 7001, S2: 7002, A: 0, B: 0, item1: 0, item2: 0, code1: '', code2: '' };
const codesOf = new Map<string, Set<string>>(DEFAULT_ROLES.map((r) => [r.code, new Set<string>(r.permissions)]));
const principals: Principal[] = [];
let cells = 0;

// ---------------------------------------------------------------------------------------------------------------
// The model (ARCHITECTURE §11), independent of the API's own code
// ---------------------------------------------------------------------------------------------------------------
const storeBoard = () => ({ [ids.S1]: ids.b1, [ids.S2]: ids.b2 }) as Record<number, number>;
const outletBoard = () => ({ [ids.A]: ids.b1, [ids.B]: ids.b2 }) as Record<number, number>;
const outletStores = () => ({ [ids.A]: [ids.S1, ids.S2], [ids.B]: [ids.S2] }) as Record<number, number[]>;
type Place = { type: 'board' | 'store' | 'outlet' | 'catalog'; id: number };

function covers(g: Grant, p: Place): boolean {
  if (g.type === 'global') return true;
  if (g.type === 'board') {
    if (p.type === 'board' || p.type === 'catalog') return p.id === g.id;
    if (p.type === 'store') return storeBoard()[p.id] === g.id;
    return outletBoard()[p.id] === g.id || (outletStores()[p.id] ?? []).some((s) => storeBoard()[s] === g.id);
  }
  if (g.type === 'store') {
    if (p.type === 'store') return p.id === g.id;
    if (p.type === 'outlet') return (outletStores()[p.id] ?? []).includes(g.id as number);
    if (p.type === 'catalog') return storeBoard()[g.id as number] === p.id;
    return false;
  }
  return p.type === 'outlet' && p.id === g.id;
}
const holds = (pr: Principal, codes: readonly string[], place: Place) =>
  pr.grants.some((g) => codes.some((c) => codesOf.get(g.role)?.has(c)) && covers(g, place));
const holdsAnywhere = (pr: Principal, codes: readonly string[]) => pr.grants.some((g) => codes.some((c) => codesOf.get(g.role)?.has(c)));
const isSuper = (pr: Principal) => pr.grants.some((g) => g.type === 'global');
const member = (pr: Principal, outlet: number) => pr.grants.some((g) => g.type === 'outlet' && g.id === outlet);
const bestLevelAt = (pr: Principal, place: Place) =>
  Math.min(999, ...pr.grants.filter((g) => covers(g, place)).map((g) => DEFAULT_ROLES.find((r) => r.code === g.role)!.roleLevel));
const keyReaches = (pr: Principal, store: number) =>
  pr.key!.storeId ? pr.key!.storeId === store : pr.key!.boardId === storeBoard()[store];

/** May the principal act on the row through a route of this kind with these codes? */
function expected(pr: Principal, kind: RowKind | 'grants', row: Row, codes: readonly string[]): boolean {
  const n = (k: string) => row[k] as number;
  switch (kind) {
    case 'board':
      return holds(pr, codes, { type: 'board', id: n('boardId') });
    case 'store':
      return holds(pr, codes, { type: 'store', id: n('storeId') });
    case 'outlet':
      return holds(pr, codes, { type: 'outlet', id: n('outletId') });
    case 'browse': {
      // A member of an outlet the store serves, holding a route code there; or a view code held at the store itself.
      const view = codes.filter((c) => c !== P.cartsUse);
      const s = n('storeId');
      return (
        holds(pr, view, { type: 'store', id: s }) ||
        [ids.A, ids.B].some((o) => outletStores()[o].includes(s) && member(pr, o) && holds(pr, codes, { type: 'outlet', id: o }))
      );
    }
    case 'item':
      return holds(pr, codes, { type: 'catalog', id: n('boardId') });
    case 'itemEdit':
      return holds(pr, codes, { type: 'board', id: n('boardId') });
    case 'user': {
      const held = row.grants as Grant[];
      return held.some((g) => g.type !== 'global' && holds(pr, codes, { type: g.type, id: g.id as number }));
    }
    case 'order':
      return (
        row.buyer === pr.name ||
        holds(pr, [P.ordersStoreManage], { type: 'store', id: n('storeId') }) ||
        holds(pr, [P.ordersOutletManage], { type: 'outlet', id: n('outletId') })
      );
    case 'storeOrder':
      return holds(pr, codes, { type: 'store', id: n('storeId') });
    case 'ownOrder':
      return row.buyer === pr.name;
    case 'cart':
      return row.buyer === pr.name && member(pr, n('outletId')) && holds(pr, codes, { type: 'outlet', id: n('outletId') });
    case 'shop':
      return (
        member(pr, n('outletId')) &&
        outletStores()[n('outletId')].includes(n('storeId')) &&
        holds(pr, codes, { type: 'outlet', id: n('outletId') })
      );
    case 'outletMember':
    case 'orderGuide':
      return member(pr, n('outletId')) && holds(pr, codes, { type: 'outlet', id: n('outletId') });
    case 'storeOrBoard':
    case 'apiKey':
    case 'webhook':
      return row.storeId ? holds(pr, codes, { type: 'store', id: n('storeId') }) : holds(pr, codes, { type: 'board', id: n('boardId') });
    case 'credential':
      return holds(pr, codes, { type: 'store', id: n('storeId') });
    case 'invitation':
      return (row.places as Place[]).every((p) => holds(pr, codes, p));
    case 'outletRequest':
      return holds(pr, codes, { type: 'outlet', id: n('outletId') });
    case 'keyStore':
    case 'keyOrder':
      return keyReaches(pr, n('storeId'));
    case 'keyBoard':
      return pr.key!.boardId !== null;
    case 'grants': {
      // The granting rules, invite mode: a place reached with bcc.users.allow_invites, a role at or below one's level there.
      const place = row.place as Place;
      if (isSuper(pr)) return true;
      return holds(pr, [P.usersAllowInvites], place) && (row.roleLevel as number) >= bestLevelAt(pr, place);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The world: boards, stores, outlets, items, people, keys
// ---------------------------------------------------------------------------------------------------------------
const hash = bcrypt.hashSync(FIXTURE_PASSWORD, 4);
let seq = 0;
async function makeUser(name: string, grants: Grant[]): Promise<string> {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${++seq}@matrix.example.com`;
  const [u] = await t.db('users').insert({ email, password_hash: hash }).returning('id');
  await t.db('user_profiles').insert({ user_id: u.id, first_name: name, last_name: 'Matrix', full_name: `${name} Matrix` });
  for (const g of grants) await grantRole(t.db, u.id, g.role, g.id === null ? [] : [g.id]);
  return u.id;
}

async function world() {
  await seedReference(t.db);
  [{ id: ids.b1 }] = await t.db('boards').insert({ board_number: 101, name: 'Board One' }).returning('id');
  [{ id: ids.b2 }] = await t.db('boards').insert({ board_number: 102, name: 'Board Two' }).returning('id');
  await t.db('stores').insert([
    { id: ids.S1, warehouse_code: 'M-S1', name: 'Store One', board_id: ids.b1, city: 'AMES', state: 'IA', delivery_enabled: true },
    { id: ids.S2, warehouse_code: 'M-S2', name: 'Store Two', board_id: ids.b2, city: 'OMAHA', state: 'NE' },
  ]);
  [{ id: ids.A }] = await t.db('outlets').insert({ outlet_code: 'M-A', name: 'Customer A', board_id: ids.b1 }).returning('id');
  [{ id: ids.B }] = await t.db('outlets').insert({ outlet_code: 'M-B', name: 'Customer B', board_id: ids.b2 }).returning('id');
  await t.db('store_outlets').insert([
    { store_id: ids.S1, outlet_id: ids.A },
    { store_id: ids.S2, outlet_id: ids.A },
    { store_id: ids.S2, outlet_id: ids.B },
  ]);
  const [i1] = await t
    .db('items')
    .insert({ board_id: ids.b1, code: '910001', name: 'MATRIX GIN', retail: '10.00' })
    .returning(['id', 'code']);
  const [i2] = await t
    .db('items')
    .insert({ board_id: ids.b2, code: '920001', name: 'MATRIX RUM', retail: '12.00' })
    .returning(['id', 'code']);
  Object.assign(ids, { item1: i1.id, item2: i2.id, code1: i1.code, code2: i2.code });
  await t.db('inventory').insert([
    { store_id: ids.S1, item_id: i1.id, on_hand: 50 },
    { store_id: ids.S2, item_id: i2.id, on_hand: 50 },
    { store_id: ids.S2, item_id: i1.id, on_hand: 50 },
  ]);
  const users: [string, Grant[]][] = [
    ['super administrator', [{ role: 'super_admin', type: 'global', id: null }]],
    ['board admin of board 1', [{ role: 'board_admin', type: 'board', id: ids.b1 }]],
    ['store manager of S1', [{ role: 'store_manager', type: 'store', id: ids.S1 }]],
    ['outlet manager of A', [{ role: 'outlet_manager', type: 'outlet', id: ids.A }]],
    ['buyer of A', [{ role: 'outlet_buyer', type: 'outlet', id: ids.A }]],
    ['viewer of A', [{ role: 'outlet_viewer', type: 'outlet', id: ids.A }]],
    ['outlet manager of B', [{ role: 'outlet_manager', type: 'outlet', id: ids.B }]],
    ['buyer of B', [{ role: 'outlet_buyer', type: 'outlet', id: ids.B }]],
    ['viewer of B', [{ role: 'outlet_viewer', type: 'outlet', id: ids.B }]],
  ];
  for (const [name, grants] of users) {
    const userId = await makeUser(name, grants);
    principals.push({ name, kind: 'user', grants, userId, token: tokenFor(t, { id: userId, email: `${name}@x` }) });
  }
  for (const [name, key] of [
    ['store API key of S1', { storeId: ids.S1, boardId: null }],
    ['board API key of board 1', { storeId: null, boardId: ids.b1 }],
  ] as const) {
    const token = `bcc_${key.storeId ? 'mtrxstor' : 'mtrxbord'}_${randomBytes(32).toString('base64url')}`;
    await t.db('api_keys').insert({
      name,
      key_prefix: token.slice(4, 12),
      key_hash: createHash('sha256').update(token).digest('hex'),
      store_id: key.storeId,
      board_id: key.boardId,
      scopes: ['catalog:write', 'inventory:write', 'orders:read', 'orders:write', 'stores:write'],
    });
    principals.push({ name, kind: 'key', grants: [], token, key });
  }
  // One order event, for the webhook deliveries of the webhook rows.
  const o = await order('buyer of A', ids.A, ids.S1, 'A');
  await t
    .db('order_events')
    .insert({ order_id: Number(o.orderId), store_id: ids.S1, type: 'order.created', payload: { orderNumber: o.orderNumber } });
}
const who = (name: string) => principals.find((p) => p.name === name)!;

// ---------------------------------------------------------------------------------------------------------------
// Rows: for each kind, rows belonging to A, B, S1 and S2 (made fresh for writes)
// ---------------------------------------------------------------------------------------------------------------
async function order(buyer: 'buyer of A' | 'buyer of B', outletId: number, storeId: number, owner: Owner): Promise<Row> {
  const number = `ORD-MATRIX-${randomUUID().slice(0, 8)}`;
  const [o] = await t
    .db('orders')
    .insert({
      order_number: number,
      user_id: who(buyer).userId,
      store_id: storeId,
      outlet_id: outletId,
      status: 'reserved',
      payment_method: 'in_store',
      payment_status: 'not_required',
      fulfillment_flag: 'Pickup',
      subtotal: '10.00',
      total_amount: '10.00',
      delivery_charge: 0,
      customer_name: buyer,
      customer_email: 'matrix@example.com',
    })
    .returning('id');
  await t.db('order_items').insert({
    order_id: o.id,
    item_code: storeId === ids.S1 ? ids.code1 : ids.code2,
    item_name: 'MATRIX',
    quantity: 1,
    unit_price: '10.00',
    total_price: '10.00',
  });
  return { owner, orderId: o.id, orderNumber: number, storeId, outletId, buyer };
}
async function cart(buyer: 'buyer of A' | 'buyer of B', outletId: number, storeId: number, owner: Owner): Promise<Row> {
  const userId = who(buyer).userId!;
  await t.db('carts').where({ user_id: userId, outlet_id: outletId, store_id: storeId, status: 'active' }).del();
  const [c] = await t.db('carts').insert({ user_id: userId, outlet_id: outletId, store_id: storeId }).returning('id');
  const [line] = await t
    .db('cart_items')
    .insert({ cart_id: c.id, item_id: ids.item2, item_code: ids.code2, quantity: 1, unit_price: '12.00' })
    .returning('id');
  return { owner, cartId: c.id, lineId: line.id, outletId, storeId, buyer };
}
/** A fresh order guide of the outlet at the store, with one line (issue 27). */
async function orderGuide(outletId: number, storeId: number, owner: Owner): Promise<Row> {
  const [g] = await t
    .db('order_guides')
    .insert({ outlet_id: outletId, store_id: storeId, name: `Matrix ${randomUUID()}` })
    .returning('id');
  await t.db('order_guide_lines').insert({ guide_id: g.id, item_code: ids.code2, par_quantity: 6, position: 0 });
  return { owner, guideId: g.id, outletId, storeId };
}
async function targetUser(owner: Owner): Promise<Row> {
  const g: Grant =
    owner === 'A' || owner === 'B'
      ? { role: 'outlet_viewer', type: 'outlet', id: owner === 'A' ? ids.A : ids.B }
      : { role: 'store_staff', type: 'store', id: owner === 'S1' ? ids.S1 : ids.S2 };
  const userId = await makeUser(`target ${owner}`, [g]);
  const role = await t.db('roles').where({ code: g.role }).first('id');
  const { email } = (await t.db('users').where({ id: userId }).first('email'))!;
  return { owner, userId, email, roleId: role!.id, grants: [g], scopeType: g.type, scopeId: g.id };
}
async function storeHeld(table: 'api_keys' | 'webhook_endpoints' | 'payment_credentials', owner: Owner): Promise<Row> {
  const storeId = owner === 'S1' ? ids.S1 : owner === 'S2' ? ids.S2 : null;
  const boardId = storeId ? null : owner === 'A' ? ids.b1 : ids.b2; // the "A"/"B" rows are board-held (boards 1 and 2)
  if (table === 'api_keys') {
    const [k] = await t
      .db('api_keys')
      .insert({
        name: 'matrix row',
        key_prefix: 'mrow0000',
        key_hash: randomBytes(32).toString('hex'),
        store_id: storeId,
        board_id: boardId,
        scopes: ['orders:read'],
      })
      .returning('id');
    return { owner, id: k.id, storeId, boardId };
  }
  if (table === 'webhook_endpoints') {
    const [w] = await t
      .db('webhook_endpoints')
      .insert({ url: 'http://127.0.0.1:9/hook', secret: 'whsec_matrix', store_id: storeId, board_id: boardId, events: ['order.created'] })
      .returning('id');
    const [{ seq }] = await t.db('order_events').max({ seq: 'seq' });
    const [d] = await t.db('webhook_deliveries').insert({ endpoint_id: w.id, event_seq: seq }).returning('id');
    return { owner, id: w.id, storeId, boardId, deliveryId: d.id };
  }
  await t
    .db('payment_credentials')
    .where({ store_id: storeId ?? ids.S1, app_code: 'BCC', environment: 'test', credential_type: 'Stripe' })
    .del();
  const [c] = await t
    .db('payment_credentials')
    .insert({
      store_id: storeId ?? ids.S1,
      app_code: 'BCC',
      environment: 'test',
      credential_type: 'Stripe',
      dek_secret_name: `matrix-${randomUUID()}`,
      encrypted_payload: 'x',
    })
    .returning('id');
  return { owner, id: c.id, storeId: storeId ?? ids.S1 };
}

/** The rows of a kind (belonging to A, B, S1, S2 where the kind has them); `fresh` for writes. */
async function rowsOf(kind: RowKind | 'grants'): Promise<Row[]> {
  switch (kind) {
    case 'board':
      return [
        { owner: 'S1', boardId: ids.b1 },
        { owner: 'S2', boardId: ids.b2 },
      ];
    case 'store':
    case 'browse':
    case 'keyStore':
    case 'keyBoard':
      return [
        { owner: 'S1', storeId: ids.S1, productCode: ids.code1 },
        { owner: 'S2', storeId: ids.S2, productCode: ids.code2 },
      ];
    case 'storeOrBoard':
      return [
        { owner: 'S1', storeId: ids.S1 },
        { owner: 'S2', storeId: ids.S2 },
        { owner: 'A', boardId: ids.b1, storeId: null },
        { owner: 'B', boardId: ids.b2, storeId: null },
      ];
    case 'outlet':
      return [
        { owner: 'A', outletId: ids.A },
        { owner: 'B', outletId: ids.B },
      ];
    case 'item':
    case 'itemEdit':
      return [
        { owner: 'S1', itemId: ids.item1, boardId: ids.b1 },
        { owner: 'S2', itemId: ids.item2, boardId: ids.b2 },
      ];
    case 'user':
      return Promise.all((['A', 'B', 'S1', 'S2'] as Owner[]).map(targetUser));
    case 'order':
    case 'storeOrder':
    case 'ownOrder':
    case 'keyOrder':
      return [
        await order('buyer of A', ids.A, ids.S1, 'A'),
        await order('buyer of A', ids.A, ids.S2, 'S2'),
        await order('buyer of B', ids.B, ids.S2, 'B'),
      ];
    case 'cart':
      return [await cart('buyer of A', ids.A, ids.S2, 'A'), await cart('buyer of B', ids.B, ids.S2, 'B')];
    case 'shop':
      return [
        { owner: 'A', outletId: ids.A, storeId: ids.S1 },
        { owner: 'S2', outletId: ids.A, storeId: ids.S2 },
        { owner: 'B', outletId: ids.B, storeId: ids.S2 },
      ];
    case 'outletMember':
      return [
        { owner: 'A', outletId: ids.A, storeId: ids.S1 },
        { owner: 'B', outletId: ids.B, storeId: ids.S2 },
      ];
    case 'orderGuide':
      return [await orderGuide(ids.A, ids.S1, 'A'), await orderGuide(ids.B, ids.S2, 'B')];
    case 'apiKey':
      return Promise.all((['A', 'B', 'S1', 'S2'] as Owner[]).map((o) => storeHeld('api_keys', o)));
    case 'webhook':
      return Promise.all((['A', 'B', 'S1', 'S2'] as Owner[]).map((o) => storeHeld('webhook_endpoints', o)));
    case 'credential':
      return Promise.all((['S1', 'S2'] as Owner[]).map((o) => storeHeld('payment_credentials', o)));
    case 'invitation': {
      const rows: Row[] = [];
      for (const [owner, col, id, role, place] of [
        ['A', 'outlet_ids', ids.A, 'outlet_viewer', { type: 'outlet', id: ids.A }],
        ['B', 'outlet_ids', ids.B, 'outlet_viewer', { type: 'outlet', id: ids.B }],
        ['S1', 'store_ids', ids.S1, 'store_staff', { type: 'store', id: ids.S1 }],
        ['S2', 'store_ids', ids.S2, 'store_staff', { type: 'store', id: ids.S2 }],
      ] as const) {
        const r = await t.db('roles').where({ code: role }).first('id');
        const [inv] = await t
          .db('invitations')
          .insert({
            email: `inv-${randomUUID().slice(0, 8)}@matrix.example.com`,
            first_name: 'In',
            last_name: 'Vited',
            role_ids: [r!.id],
            outlet_ids: [],
            [col]: [id],
            invited_by: who('super administrator').userId,
            expires_at: new Date(Date.now() + 86_400_000),
          })
          .returning('id');
        rows.push({ owner, id: inv.id, places: [place] });
      }
      return rows;
    }
    case 'outletRequest': {
      const rows: Row[] = [];
      for (const [owner, outletId, requester] of [
        ['A', ids.A, 'buyer of B'],
        ['B', ids.B, 'buyer of A'],
      ] as const) {
        await t
          .db('outlet_requests')
          .where({ user_id: who(requester).userId, status: 'pending' })
          .del();
        const [r] = await t
          .db('outlet_requests')
          .insert({ user_id: who(requester).userId, outlet_id: outletId })
          .returning('id');
        rows.push({ owner, id: r.id, outletId });
      }
      return rows;
    }
    case 'grants':
      return [
        { owner: 'A', place: { type: 'outlet', id: ids.A }, roleLevel: 60, body: { roleIds: ['outlet_viewer'], outletIds: [ids.A] } },
        { owner: 'B', place: { type: 'outlet', id: ids.B }, roleLevel: 60, body: { roleIds: ['outlet_viewer'], outletIds: [ids.B] } },
        { owner: 'S1', place: { type: 'store', id: ids.S1 }, roleLevel: 30, body: { roleIds: ['store_staff'], storeIds: [ids.S1] } },
        { owner: 'S2', place: { type: 'store', id: ids.S2 }, roleLevel: 30, body: { roleIds: ['store_staff'], storeIds: [ids.S2] } },
      ];
  }
}

/** The path of a route for a row: each `{param}` from the row (`id` and `itemId` by the path's resource). */
function pathFor(r: Route, row: Row): string {
  return expressPath(r.path).replace(/:(\w+)/g, (_m, k: string) => {
    const v =
      k === 'itemId' && r.path.startsWith('/carts')
        ? row.lineId
        : k === 'warehouseId'
          ? row.storeId
          : k === 'code'
            ? row.productCode
            : k === 'permissionCode'
              ? P.cartsCheckout
              : k === 'token'
                ? 'x'.repeat(64)
                : (row[k] ?? row.id);
    return encodeURIComponent(String(v));
  });
}

/** A readable body for routes whose row is in their body; elsewhere a body no route accepts (the row is checked first). */
async function bodyFor(r: Route, row: Row): Promise<unknown> {
  const scope = r.scope;
  const fromBody = typeof scope === 'object' && scope.fromBody;
  const key = `${r.method.toUpperCase()} ${r.path}`;
  const unique = randomUUID().slice(0, 8);
  if (scope === 'grants') {
    const b = row.body as { roleIds: string[]; outletIds?: number[]; storeIds?: number[] };
    const roleIds = await Promise.all(b.roleIds.map(async (c) => (await t.db('roles').where({ code: c }).first('id'))!.id));
    return { email: `invitee-${unique}@matrix.example.com`, firstName: 'In', lastName: 'Vitee', outletIds: [], ...b, roleIds };
  }
  // A route whose service checks the row itself reads its body first: it gets a readable body too.
  const inService = typeof scope === 'object' && scope.inService && r.def.body;
  if (!fromBody && !inService) return { matrixProbe: true };
  const samples: Record<string, () => unknown> = {
    'POST /carts/{cartId}/items': () => ({ itemCode: ids.code2 }),
    'PATCH /carts/{cartId}/items/{itemId}': () => ({ quantity: 2 }),
    'PUT /carts/{cartId}/fulfillment': () => ({ type: 'Pickup', date: null }),
    'POST /admin/outlets': () => ({ name: `Outlet ${unique}`, outletCode: `MO-${unique}`, boardId: row.boardId }),
    'POST /admin/stores': () => ({
      name: `Store ${unique}`,
      warehouseCode: `MS-${unique}`,
      boardId: row.boardId,
      city: 'AMES',
      state: 'IA',
    }),
    'POST /admin/payment-credentials': () => ({
      storeId: row.storeId,
      appCode: 'IMS',
      environment: 'prod',
      credentialType: 'PayPal',
      dekSecretName: `dek-${unique}`,
      payload: { clientId: 'x' },
    }),
    'POST /admin/api-keys': () => ({
      name: `key ${unique}`,
      storeId: row.storeId ?? null,
      boardId: row.boardId ?? null,
      scopes: ['orders:read'],
    }),
    'POST /admin/webhooks': () => ({
      url: 'http://127.0.0.1:9/hook',
      storeId: row.storeId ?? null,
      boardId: row.boardId ?? null,
      events: ['order.created'],
    }),
    'POST /checkout-sessions': () => ({ cartId: row.cartId }),
  };
  const sample = samples[key];
  if (!sample) throw new Error(`${key} finds its row in its body: give the matrix a readable sample body for it`);
  return sample();
}

async function call(r: Route, pr: Principal, path: string, body: unknown, query = '') {
  const req = request(t.app)[r.method](`/api/v1${path}${query}`).set('Authorization', `Bearer ${pr.token}`);
  return ['post', 'put', 'patch'].includes(r.method) ||
    (r.method === 'delete' && body !== undefined && typeof r.scope === 'object' && r.scope.fromBody)
    ? req.send(body as object)
    : req;
}

/** A supertest request of the route's method on `path` with a bearer token. */
const hit = (r: Route, path: string, token?: string) => {
  const req = request(t.app)[r.method](`/api/v1${path}`);
  return token ? req.set('Authorization', `Bearer ${token}`) : req;
};

const label = (r: Route) => `${r.method.toUpperCase()} ${r.path}`;
/**
 * What an answer says of authorization: 401/403/404 refused (404 is how a row out of reach answers), a 500 a
 * crash, anything else allowed (a 4xx about the input, or 502/503 when a dependency such as the job queue is not
 * running in tests). On the caller's own data (`self`) a 404 means "none of yours", not a refusal.
 */
const verdict = (status: number, r: Route) =>
  status === 500 ? 'crashed' : status === 401 || status === 403 || (status === 404 && r.scope !== 'self') ? 'refused' : 'allowed';

beforeAll(async () => {
  t = await createTestContext();
  await world();
}, 120_000);
afterAll(async () => {
  console.log(`scope matrix: ${cells} cells (routes × principals × rows)`);
  await t.close();
});

const userRoutes = routeTable.filter((r) => r.auth === 'user');
const keyRoutes = routeTable.filter((r) => r.auth === 'apiKey');

it('every route declares its scope, and every declared row kind is in the model and has rows', async () => {
  for (const r of routeTable) {
    expect([label(r), typeof r.scope]).not.toEqual([label(r), 'undefined']);
    if (typeof r.scope === 'object') expect([label(r), (await rowsOf(r.scope.row)).length > 0]).toEqual([label(r), true]);
  }
});

describe.each(userRoutes.map((r) => [label(r), r] as const))('%s', (_name, r) => {
  it('answers every principal as §11 says, for every row', async () => {
    const scope = r.scope;
    const results: string[] = [];
    const expectations: string[] = [];
    const users = principals.filter((p) => p.kind === 'user');
    const rowKind = typeof scope === 'object' ? scope.row : scope === 'grants' ? 'grants' : null;
    const codes = typeof scope === 'object' ? (scope.codes ?? r.permissions) : r.permissions;
    const writes = r.method !== 'get';
    let shared = rowKind && !writes ? await rowsOf(rowKind) : undefined;
    for (const pr of users) {
      const rows: Row[] = rowKind ? (shared ?? (await rowsOf(rowKind))) : [{ owner: 'A' }];
      for (const row of rows) {
        const gate = !r.permissions.length || holdsAnywhere(pr, r.permissions);
        let allowed: boolean;
        if (!rowKind) allowed = scope === 'global' ? isSuper(pr) && gate : gate;
        else allowed = gate && expected(pr, rowKind, row, codes);
        const query = r.path === '/carts/current' ? `?outletId=${row.outletId}&storeId=${row.storeId}` : '';
        const res = await call(r, pr, pathFor(r, row), await bodyFor(r, row), query);
        const cell = `${pr.name} × ${row.owner}`;
        results.push(`${cell}: ${verdict(res.status, r)}`);
        expectations.push(`${cell}: ${allowed ? 'allowed' : 'refused'}`);
        cells++;
        if (verdict(res.status, r) !== (allowed ? 'allowed' : 'refused') && process.env.MATRIX_DEBUG)
          console.log(label(r), cell, res.status, res.text.slice(0, 200));
      }
      if (writes) shared = undefined;
    }
    expect(results).toEqual(expectations);
    // An API key is no user: every user route refuses it.
    for (const key of principals.filter((p) => p.kind === 'key')) {
      const res = await hit(r, pathFor(r, { owner: 'A', id: 1 }), key.token);
      expect([key.name, res.status]).toEqual([key.name, 401]);
      cells++;
    }
  });
});

describe.each(keyRoutes.map((r) => [label(r), r] as const))('%s', (_name, r) => {
  it('answers each API key as its store or board reaches the row, and refuses users', async () => {
    const scope = r.scope;
    const rowKind = typeof scope === 'object' ? scope.row : null;
    const rows: Row[] = rowKind ? await rowsOf(rowKind) : [{ owner: 'S1' }];
    const results: string[] = [];
    const expectations: string[] = [];
    for (const pr of principals.filter((p) => p.kind === 'key')) {
      for (const row of rows) {
        const allowed = rowKind ? expected(pr, rowKind, row, []) : true;
        // The status update checks its order in its service, after reading the body: it gets a readable one.
        const body =
          r.method === 'get'
            ? undefined
            : r.path.includes('/status')
              ? JSON.stringify({ status: 'ready' })
              : r.path === '/integrations/test-events'
                ? JSON.stringify({ storeId: row.storeId })
                : '[]';
        const req = hit(r, pathFor(r, row), pr.token);
        const res = body === undefined ? await req : await req.set('content-type', 'application/json').send(body);
        results.push(`${pr.name} × ${row.owner}: ${verdict(res.status, r)}`);
        expectations.push(`${pr.name} × ${row.owner}: ${allowed ? 'allowed' : 'refused'}`);
        cells++;
      }
    }
    expect(results).toEqual(expectations);
    for (const pr of principals.filter((p) => p.kind === 'user')) {
      const res = await hit(r, pathFor(r, rows[0]), pr.token);
      expect([pr.name, res.status]).toEqual([pr.name, 401]);
      cells++;
    }
  });
});

/**
 * The lists (`scope: 'reach'`): each principal sees exactly the rows §11 gives them, of those belonging to A, B,
 * S1 and S2.
 */
describe('lists show the rows in reach and only those', () => {
  const ownerIds = (rows: Row[], field: string) => Object.fromEntries(rows.map((r) => [String(r[field]), r.owner]));
  it.each([
    [
      '/admin/stores?pageSize=100',
      'store',
      'storeId',
      (b: { items: { id: number }[] }) => b.items.map((i) => String(i.id)),
      [P.storesAdmin, P.storesSuperAdmin],
    ],
    [
      '/admin/outlets?pageSize=100',
      'outlet',
      'outletId',
      (b: { items: { id: number }[] }) => b.items.map((i) => String(i.id)),
      [P.outletsAdmin],
    ],
    ['/admin/boards', 'board', 'boardId', (b: { items: { id: number }[] }) => b.items.map((i) => String(i.id)), [P.boardsManage]],
    ['/orders?status=reserved', 'order', 'orderId', (b: { items: { id: number }[] }) => b.items.map((i) => String(i.id)), []],
    [
      '/admin/api-keys',
      'apiKey',
      'id',
      (b: { items: { id: string }[] }) => b.items.map((i) => i.id),
      [P.storesAdmin, P.boardsManage, P.usersSuperAdmin],
    ],
  ] as const)('GET %s', async (path, kind, field, pick, codes) => {
    const rows = await rowsOf(kind as RowKind);
    const owners = ownerIds(rows, field);
    for (const pr of principals.filter((p) => p.kind === 'user')) {
      const res = await request(t.app).get(`/api/v1${path}`).set('Authorization', `Bearer ${pr.token}`);
      const gate = !codes.length || holdsAnywhere(pr, codes as readonly string[]);
      if (!gate) {
        expect([pr.name, res.status]).toEqual([pr.name, 403]);
        continue;
      }
      const seen = pick(res.body)
        .filter((id) => id in owners)
        .map((id) => owners[id])
        .sort();
      const want = rows
        .filter((row) => expected(pr, kind as RowKind, row, kind === 'order' ? [] : (codes as readonly string[])))
        .map((row) => row.owner)
        .sort();
      expect([pr.name, seen]).toEqual([pr.name, want]);
      cells += rows.length;
    }
  });

  it('GET /admin/users', async () => {
    const rows = await rowsOf('user');
    const codes = [P.usersSuperAdmin, P.usersManageBoard, P.usersManageStore, P.usersManageOutlet, P.adminUserRolesManage];
    for (const pr of principals.filter((p) => p.kind === 'user')) {
      const seen: string[] = [];
      for (const row of rows) {
        const res = await request(t.app)
          .get(`/api/v1/admin/users?limit=100&search=${encodeURIComponent(row.email as string)}`)
          .set('Authorization', `Bearer ${pr.token}`);
        if (!holdsAnywhere(pr, codes)) expect([pr.name, res.status]).toEqual([pr.name, 403]);
        else if ((res.body.items as { id: string }[]).some((u) => u.id === row.userId)) seen.push(row.owner);
      }
      if (!holdsAnywhere(pr, codes)) continue;
      const want = rows.filter((row) => expected(pr, 'user', row, codes)).map((row) => row.owner);
      expect([pr.name, seen.sort()]).toEqual([pr.name, want.sort()]);
      cells += rows.length;
    }
  });
});
