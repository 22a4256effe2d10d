import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { openDataFile } from './data-files';
import { parse } from 'csv-parse';
import bcrypt from 'bcrypt';
import type { Knex } from 'knex';
import { ROLES } from '@portal/contracts';
import { grantRoleAtOutlets } from './grants';
import { seedOrderingWeek } from './ordering-week';

/**
 * Demo data: made-up outlets (clearly named as demo) linked to real large stores, and the
 * four demo accounts, all with `password` (default Portal#2026). Idempotent: existing rows are kept.
 * With the real sales file present, the buyer also gets a few past orders shaped like real invoices.
 */
export const DEMO_ACCOUNTS = [
  {
    email: 'admin@example.com',
    firstName: 'Alex',
    lastName: 'Admin',
    role: ROLES.superAdmin,
    outlets: ['DEMO-DSM-01', 'DEMO-AMS-01', 'DEMO-DAV-01', 'SYSTEM-ADMIN'],
  },
  {
    email: 'manager@example.com',
    firstName: 'Morgan',
    lastName: 'Manager',
    role: ROLES.storeManager,
    outlets: ['DEMO-DSM-01', 'DEMO-AMS-01'],
  },
  { email: 'buyer@example.com', firstName: 'Blake', lastName: 'Buyer', role: ROLES.outletBuyer, outlets: ['DEMO-DSM-01', 'DEMO-AMS-01'] },
  { email: 'viewer@example.com', firstName: 'Val', lastName: 'Viewer', role: ROLES.outletViewer, outlets: ['DEMO-DSM-01', 'DEMO-AMS-01'] },
] as const;

/** Demo outlets; stores are real store numbers from stores.csv (the largest assortments near each city). */
export const DEMO_OUTLETS = [
  {
    code: 'DEMO-DSM-01',
    name: 'Demo – Court Avenue Taproom',
    address: '309 Court Ave',
    city: 'DES MOINES',
    state: 'IA',
    zip: '50309',
    phone: '(515) 555-0142',
    email: 'taproom@example.com',
    stores: [2190, 6256, 6242],
  },
  {
    code: 'DEMO-AMS-01',
    name: 'Demo – Campustown Bistro',
    address: '2418 Lincoln Way',
    city: 'AMES',
    state: 'IA',
    zip: '50014',
    phone: '(515) 555-0175',
    email: 'bistro@example.com',
    stores: [4129, 2190],
  },
  {
    code: 'DEMO-DAV-01',
    name: 'Demo – Riverfront Oyster Bar',
    address: '102 E River Dr',
    city: 'DAVENPORT',
    state: 'IA',
    zip: '52801',
    phone: '(563) 555-0110',
    email: 'oysters@example.com',
    stores: [2614],
  },
  {
    // A customer none of the demo accounts works for: the other tenant of the scope checks (ARCHITECTURE §11).
    code: 'DEMO-ICY-01',
    name: 'Demo – Washington Street Wine Bar',
    address: '114 E Washington St',
    city: 'IOWA CITY',
    state: 'IA',
    zip: '52240',
    phone: '(319) 555-0130',
    email: 'winebar@example.com',
    stores: [2285],
  },
  {
    code: 'SYSTEM-ADMIN',
    name: 'System Administration',
    address: null,
    city: null,
    state: null,
    zip: null,
    phone: null,
    email: null,
    stores: [2190],
    admin: true,
  },
];

/** The store that offers delivery in the demo (all others: pickup only, as imported). */
export const DEMO_DELIVERY_STORE = { id: 2190, charge: '15.00', phone: '(515) 555-0100', ccEmails: 'orders-2190@example.com' };

export async function seedDemo(
  db: Knex,
  opts: { password: string; bcryptCost: number; salesFile?: string; storeItemsFile?: string },
): Promise<{ created: boolean }> {
  const exists = await db('users').where({ email: 'admin@example.com' }).first('id');
  const hash = exists ? '' : await bcrypt.hash(opts.password, opts.bcryptCost);
  const storeIds = new Set<number>((await db('stores').select('id')).map((s) => s.id));
  const board = await db('boards').orderBy('board_number').first('id');
  await db.transaction(async (trx) => {
    await trx('stores').where({ id: DEMO_DELIVERY_STORE.id }).whereNull('phone').update({
      delivery_enabled: true,
      delivery_charge: DEMO_DELIVERY_STORE.charge,
      phone: DEMO_DELIVERY_STORE.phone,
      orderconf_ccemails: DEMO_DELIVERY_STORE.ccEmails,
    });
    for (const o of DEMO_OUTLETS) {
      const linked = o.stores.filter((s) => storeIds.has(s));
      await trx('outlets')
        .insert({
          outlet_code: o.code,
          name: o.name,
          address: o.address,
          city: o.city,
          state: o.state,
          zip_code: o.zip,
          phone: o.phone,
          email: o.email,
          is_admin_outlet: Boolean(o.admin),
          default_store_id: linked[0] ?? null,
          board_id: board?.id ?? null,
        })
        .onConflict('outlet_code')
        .ignore();
      const outlet = await trx('outlets').where({ outlet_code: o.code }).first('id');
      if (!outlet) throw new Error(`outlet ${o.code} was not written`);
      if (linked.length)
        await trx('store_outlets')
          .insert(linked.map((s) => ({ store_id: s, outlet_id: outlet.id })))
          .onConflict(['store_id', 'outlet_id'])
          .ignore();
    }
    if (exists) return;
    const outlets = new Map<string, number>((await trx('outlets').select('id', 'outlet_code')).map((o) => [o.outlet_code, o.id]));
    for (const a of DEMO_ACCOUNTS) {
      const [u] = await trx('users').insert({ email: a.email, password_hash: hash }).returning('id');
      await trx('user_profiles').insert({
        user_id: u.id,
        first_name: a.firstName,
        last_name: a.lastName,
        full_name: `${a.firstName} ${a.lastName}`,
      });
      // Scoped grants (ARCHITECTURE §11), as the upgrade converts a role with outlets: the manager holds
      // store_manager at the stores of the two outlets (and shops there as a viewer), the admin is global.
      await grantRoleAtOutlets(
        trx,
        u.id,
        a.role,
        a.outlets.map((c) => outlets.get(c)!),
      );
    }
  });
  // The past orders need the buyer's first store (a database loaded with other data may lack it).
  if (!exists && opts.salesFile && existsSync(opts.salesFile) && storeIds.has(DEMO_OUTLETS[0].stores[0]))
    await seedPastOrders(db, opts.salesFile);
  // The ordering week's guides, weekly orders, case rule and store history (issue 27): with the real data only
  // (tests seed without it), on every demo seed (idempotent: an upgraded portal gets them on its next start).
  if (opts.salesFile && existsSync(opts.salesFile)) await seedOrderingWeek(db, { storeItemsFile: opts.storeItemsFile });
  return { created: !exists };
}

/** Three real invoices of the buyer's first store become completed past orders (real basket shapes). */
async function seedPastOrders(db: Knex, salesFile: string) {
  const storeId = DEMO_OUTLETS[0].stores[0];
  const invoices = new Map<string, { date: string; lines: { code: string; qty: number }[] }>();
  const parser = openDataFile(salesFile).pipe(parse({ columns: true }));
  for await (const rec of parser as AsyncIterable<Record<string, string>>) {
    if (Number(rec['Store Number']) !== storeId) continue;
    const inv = rec['Invoice/Item Number'].slice(0, 12);
    const qty = Number(rec['Bottles Sold']);
    if (!inv.startsWith('INV-') || qty < 1 || qty > 999) continue;
    if (!invoices.has(inv)) {
      if (invoices.size >= 3) break;
      invoices.set(inv, { date: rec.Date, lines: [] });
    }
    invoices.get(inv)!.lines.push({ code: rec['Item Number'], qty });
  }
  const buyer = await db('users as u')
    .join('user_profiles as p', 'p.user_id', 'u.id')
    .where('u.email', 'buyer@example.com')
    .first('u.id', 'u.email', 'p.full_name');
  const outlet = await db('outlets').where({ outlet_code: DEMO_OUTLETS[0].code }).first('id');
  if (!outlet) throw new Error(`outlet ${DEMO_OUTLETS[0].code} is missing`);
  await db.transaction(async (trx) => {
    for (const [inv, { date, lines }] of invoices) {
      const items = await trx('items as i')
        .leftJoin('bottle_sizes as b', 'b.id', 'i.bottle_size_id')
        .whereIn('i.code', [...new Set(lines.map((l) => l.code))])
        .select('i.code', 'i.name', 'i.retail', 'i.bottle_size_id', 'b.name as size');
      const byCode = new Map(items.map((i) => [i.code, i]));
      const merged = new Map<string, number>();
      for (const l of lines) if (byCode.has(l.code)) merged.set(l.code, Math.min(999, (merged.get(l.code) ?? 0) + l.qty));
      const cents = [...merged].reduce((s, [c, q]) => s + Math.round(Number(byCode.get(c).retail) * 100) * q, 0);
      const total = (cents / 100).toFixed(2);
      const [order] = await trx('orders')
        .insert({
          order_number: `ORD-${date.replace(/-/g, '')}-${inv.slice(4)}`,
          user_id: buyer.id,
          store_id: storeId,
          outlet_id: outlet.id,
          status: 'completed',
          payment_method: 'in_store',
          payment_status: 'not_required',
          fulfillment_flag: 'Pickup',
          subtotal: total,
          total_amount: total,
          delivery_charge: 0,
          customer_name: buyer.full_name,
          customer_email: buyer.email,
          order_date: `${date}T15:00:00Z`,
          notes: `Demo order shaped like Iowa invoice ${inv}`,
        })
        .onConflict('order_number')
        .ignore()
        .returning('id');
      if (!order) continue;
      await trx('order_items').insert(
        [...merged].map(([code, qty]) => {
          const it = byCode.get(code);
          return {
            order_id: order.id,
            item_code: code,
            item_name: it.name,
            bottle_size_id: it.bottle_size_id,
            bottlesize_text: it.size,
            quantity: qty,
            unit_price: it.retail,
            total_price: ((Math.round(Number(it.retail) * 100) * qty) / 100).toFixed(2),
          };
        }),
      );
    }
  });
}

/** The password the demo accounts get unless DEMO_PASSWORD says otherwise (README "Demo accounts"). */
export const DEFAULT_DEMO_PASSWORD = 'Portal#2026';

/**
 * Which demo accounts (DEMO_ACCOUNTS emails) still sign in with one of `passwords` (bcrypt compare of the
 * stored hash; a production start refuses while any does). Returns their emails, sorted.
 */
export async function accountsWithDemoPassword(db: Knex, passwords: readonly string[]): Promise<string[]> {
  const rows: { email: string; password_hash: string | null }[] = await db('users')
    .whereIn(
      'email',
      DEMO_ACCOUNTS.map((a) => a.email),
    )
    .select('email', 'password_hash');
  const unique = [...new Set(passwords.filter(Boolean))];
  const hits = await Promise.all(
    rows.map(async (r) => {
      if (!r.password_hash) return undefined;
      for (const p of unique) if (await bcrypt.compare(p, r.password_hash).catch(() => false)) return r.email;
      return undefined;
    }),
  );
  return hits.filter((e): e is string => Boolean(e)).sort();
}

/**
 * Locks the demo accounts for a real deployment (`npm run db:seed -- --lock-demo`): each gets a random
 * password nobody knows, is deactivated and loses its sessions; their orders stay. Returns the emails locked.
 */
export async function lockDemoAccounts(db: Knex, bcryptCost: number): Promise<string[]> {
  return db.transaction(async (trx) => {
    const users: { id: string; email: string }[] = await trx('users')
      .whereIn(
        'email',
        DEMO_ACCOUNTS.map((a) => a.email),
      )
      .select('id', 'email');
    for (const u of users) {
      const hash = await bcrypt.hash(randomBytes(32).toString('base64url'), bcryptCost);
      await trx('users').where({ id: u.id }).update({ password_hash: hash, is_active: false });
      await trx('auth_sessions').where({ user_id: u.id }).del();
    }
    return users.map((u) => u.email).sort();
  });
}
