import { randomBytes } from 'node:crypto';
import { createTestContext, type TestContext } from '../test/harness';
import { withDatabase } from '../test/global-setup';
import { createDb, migrateLatest, migrateRollback, migrationStatus } from './knex';
import { migrationSource } from '@portal/migrations';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

const tables = async () =>
  (await t.db.raw(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'knex_%' ORDER BY 1`)).rows.map(
    (r: { tablename: string }) => r.tablename,
  );

describe('migrations', () => {
  it('when rolled back completely and migrated again, then the same schema comes back', async () => {
    const before = await tables();
    expect(before).toEqual(
      expect.arrayContaining([
        'users',
        'roles',
        'stores',
        'outlets',
        'items',
        'inventory',
        'carts',
        'cart_items',
        'orders',
        'order_items',
        'payments',
        'checkout_sessions',
        'api_keys',
        'payment_credentials',
        'audit_log',
      ]),
    );
    const rolled = await migrateRollback(t.db, true);
    expect(rolled.length).toBe((await migrationSource.getMigrations([])).length);
    expect(await tables()).toEqual([]);
    expect(await migrationStatus(t.db)).toBe('pending');
    await migrateLatest(t.db);
    expect(await tables()).toEqual(before);
    expect(await migrationStatus(t.db)).toBe('current');
  });

  it('when two processes migrate a new database at the same time (replicas starting together), then both start: one applies, the other waits and finds nothing pending', async () => {
    const server = process.env.PORTAL_TEST_SERVER!;
    const name = `portal_race_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = createDb(withDatabase(server, 'postgres'), { max: 1 });
    await admin.raw(`CREATE DATABASE ${name}`);
    const [a, b] = [createDb(withDatabase(server, name)), createDb(withDatabase(server, name))];
    try {
      const applied = await Promise.all([migrateLatest(a), migrateLatest(b)]);
      const all = (await migrationSource.getMigrations([])).length;
      expect(applied.map((x) => x.length).sort((x, y) => x - y)).toEqual([0, all]);
      expect(await migrationStatus(b)).toBe('current');
    } finally {
      await Promise.all([a.destroy(), b.destroy()]);
      await admin.raw(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.destroy();
    }
  });

  it('when an earlier race left knex two unlocked lock rows (knex#3538), then migrating repairs them and applies everything', async () => {
    const server = process.env.PORTAL_TEST_SERVER!;
    const name = `portal_lockrows_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = createDb(withDatabase(server, 'postgres'), { max: 1 });
    await admin.raw(`CREATE DATABASE ${name}`);
    const db = createDb(withDatabase(server, name), { max: 1 });
    try {
      expect(await migrationStatus(db)).toBe('pending'); // creates knex's tables and its one lock row
      await db('knex_migrations_lock').insert({ is_locked: 0 }); // the second process's row
      const applied = await migrateLatest(db, { waitMs: 3_000 });
      expect(applied).toHaveLength((await migrationSource.getMigrations([])).length);
      expect(await db('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
    } finally {
      await db.destroy();
      await admin.raw(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.destroy();
    }
  });

  it('when another process keeps migrating past waitMs, then migrating gives up with a clear error and applies nothing', async () => {
    const server = process.env.PORTAL_TEST_SERVER!;
    const name = `portal_lockwait_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = createDb(withDatabase(server, 'postgres'), { max: 1 });
    await admin.raw(`CREATE DATABASE ${name}`);
    const [other, db] = [createDb(withDatabase(server, name), { max: 1 }), createDb(withDatabase(server, name), { max: 1 })];
    try {
      // The other process's turn: the advisory lock every migrating process of this release takes, held.
      await other.raw(`SELECT pg_advisory_lock(hashtext('portal.migrations'))`);
      await expect(migrateLatest(db, { waitMs: 300 })).rejects.toThrow(
        /another process has been migrating this database for more than 300 ms/,
      );
      expect(await migrationStatus(db)).toBe('pending');
    } finally {
      await Promise.all([other.destroy(), db.destroy()]);
      await admin.raw(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.destroy();
    }
  });

  it('when bad rows are written directly, then the database refuses them', async () => {
    const [board] = await t.db('boards').insert({ board_number: 77, name: 'Test board' }).returning('id');
    await expect(t.db('stores').insert({ id: 1, warehouse_code: 'X-1', name: 'X', board_id: board.id, state: 'Iowa' })).rejects.toThrow(
      /stores_state_two_letters/,
    );
    await expect(
      t.db('stores').insert({ id: 2, warehouse_code: 'X-2', name: 'X', board_id: board.id, delivery_charge: '-1' }),
    ).rejects.toThrow(/delivery_charge_nonnegative/);
    await t.db('stores').insert({ id: 3, warehouse_code: 'X-3', name: 'X', board_id: board.id });
    const [item] = await t.db('items').insert({ board_id: board.id, code: '100', name: 'Test', retail: '10.00' }).returning('id');
    const [user] = await t.db('users').insert({ email: 'x@example.com', password_hash: 'x' }).returning('id');
    const [outlet] = await t.db('outlets').insert({ outlet_code: 'O1', name: 'Outlet' }).returning('id');
    const cart = { user_id: user.id, outlet_id: outlet.id, store_id: 3 };
    const [c] = await t.db('carts').insert(cart).returning('id');
    await expect(t.db('carts').insert(cart)).rejects.toThrow(/carts_one_active_per_user_outlet_store/);
    await expect(
      t.db('cart_items').insert({ cart_id: c.id, item_id: item.id, item_code: '100', quantity: 1000, unit_price: '1.00' }),
    ).rejects.toThrow(/quantity_range/);
    await expect(
      t.db('cart_items').insert({ cart_id: c.id, item_id: item.id, item_code: '100', quantity: 0, unit_price: '1.00' }),
    ).rejects.toThrow(/quantity_range/);
    await expect(t.db('outlets').insert({ outlet_code: 'O2', name: 'x', state: 'ny' })).rejects.toThrow(/outlets_state_two_letters/);
    await expect(t.db('permissions').insert({ code: 'other.code' })).rejects.toThrow(/permissions_code_prefix/);
  });
});
