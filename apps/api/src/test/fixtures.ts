import { join } from 'node:path';
import bcrypt from 'bcrypt';
import type { Db } from '../db/knex';
import { grantRoleAtOutlets, importFiles, seedDemo } from '@portal/seeds';
import { FIXTURE_PASSWORD } from './harness';

/**
 * Small fixtures cut from the real files (scripts/cut-fixtures.mjs): 5 real stores, 90 real items,
 * their store_items rows; then the demo outlets and accounts (password FIXTURE_PASSWORD) and a few
 * extra users for refusal tests. Store 2190 offers delivery (15.00); 4129 does not; 2113 is inactive.
 */
export const FIXTURE_STORES = { central: 2190, cyclone: 4129, davenport: 2614, small: 2106, inactive: 2113 } as const;

export interface Fixtures {
  outlets: { dsm: number; ams: number; dav: number; admin: number; inactive: number; unassigned: number };
  users: Record<
    'admin' | 'manager' | 'buyer' | 'viewer' | 'otherManager' | 'otherBuyer' | 'inactive' | 'noRoles',
    { id: string; email: string }
  >;
}

export async function seedFixtures(db: Db): Promise<Fixtures> {
  const dir = join(__dirname, 'fixtures');
  await importFiles(
    db,
    ['stores.csv', 'products.csv', 'store_items.csv'].map((f) => join(dir, f)),
  );
  await seedDemo(db, { password: FIXTURE_PASSWORD, bcryptCost: 4 });
  const hash = await bcrypt.hash(FIXTURE_PASSWORD, 4);
  const outletId = async (code: string) => (await db('outlets').where({ outlet_code: code }).first('id'))!.id as number;
  const [inactiveOutlet] = await db('outlets')
    .insert({ outlet_code: 'TEST-INACTIVE', name: 'Test – Closed Lounge', active: false, default_store_id: 2190 })
    .returning('id');
  const [unassigned] = await db('outlets')
    .insert({ outlet_code: 'TEST-OPEN', name: 'Test – Open Cellar', city: 'AMES', state: 'IA', default_store_id: 4129 })
    .returning('id');
  await db('store_outlets').insert([
    { store_id: 2190, outlet_id: inactiveOutlet.id },
    { store_id: 4129, outlet_id: unassigned.id },
  ]);
  const dsm = await outletId('DEMO-DSM-01');
  // The Des Moines outlet also links the inactive store (it must never be listed).
  await db('store_outlets').insert({ store_id: FIXTURE_STORES.inactive, outlet_id: dsm }).onConflict().ignore();
  const extra = [
    { key: 'otherManager', email: 'other-manager@example.com', role: 'store_manager', outlets: ['DEMO-DAV-01'], active: true },
    { key: 'otherBuyer', email: 'other-buyer@example.com', role: 'outlet_buyer', outlets: ['DEMO-DAV-01'], active: true },
    { key: 'inactive', email: 'inactive@example.com', role: 'outlet_buyer', outlets: ['DEMO-DSM-01'], active: false },
    { key: 'noRoles', email: 'noroles@example.com', role: null, outlets: ['DEMO-DSM-01'], active: true },
  ] as const;
  for (const u of extra) {
    const [row] = await db('users').insert({ email: u.email, password_hash: hash, is_active: u.active }).returning('id');
    await db('user_profiles').insert({ user_id: row.id, first_name: u.key, last_name: 'Test', full_name: `${u.key} Test` });
    // Scoped grants as the upgrade converts "a role with outlets" (the no-role user belongs nowhere).
    if (u.role) await grantRoleAtOutlets(db, row.id, u.role, await Promise.all(u.outlets.map(outletId)));
  }
  const user = async (email: string) => ({ id: (await db('users').where({ email }).first('id'))!.id as string, email });
  return {
    outlets: {
      dsm,
      ams: await outletId('DEMO-AMS-01'),
      dav: await outletId('DEMO-DAV-01'),
      admin: await outletId('SYSTEM-ADMIN'),
      inactive: inactiveOutlet.id,
      unassigned: unassigned.id,
    },
    users: {
      admin: await user('admin@example.com'),
      manager: await user('manager@example.com'),
      buyer: await user('buyer@example.com'),
      viewer: await user('viewer@example.com'),
      otherManager: await user('other-manager@example.com'),
      otherBuyer: await user('other-buyer@example.com'),
      inactive: await user('inactive@example.com'),
      noRoles: await user('noroles@example.com'),
    },
  };
}
