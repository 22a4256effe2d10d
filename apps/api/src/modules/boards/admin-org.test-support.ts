import bcrypt from 'bcrypt';
import { grantRoleAtOutlets } from '@portal/seeds';
import type { Db } from '../../db/knex';
import { FIXTURE_PASSWORD } from '../../test/harness';

/**
 * A second board for scope tests: board number 2 with one store (9001), one item (code
 * 900001) and one outlet (OTHER-01) linked to that store. The fixtures' data is all board 1 (Iowa).
 */
export async function seedOtherBoard(db: Db) {
  const [board] = await db('boards').insert({ board_number: 2, name: 'Other Board' }).returning('id');
  await db('stores').insert({
    id: 9001,
    warehouse_code: 'OB-9001',
    name: 'Other Board Store',
    board_id: board.id,
    city: 'OMAHA',
    state: 'NE',
  });
  const [item] = await db('items').insert({ board_id: board.id, code: '900001', name: 'OTHER BOARD GIN', retail: '10.00' }).returning('id');
  const [outlet] = await db('outlets')
    .insert({ outlet_code: 'OTHER-01', name: 'Other – Lounge', board_id: board.id, state: 'NE' })
    .returning('id');
  await db('store_outlets').insert({ store_id: 9001, outlet_id: outlet.id });
  return { boardId: board.id as number, storeId: 9001, itemId: item.id as number, outletId: outlet.id as number };
}

/** A user with one role (by code) "with the given outlets" (seeds' grantRoleAtOutlets); password FIXTURE_PASSWORD. */
export async function createUserWithRole(db: Db, email: string, roleCode: string, outletIds: number[]) {
  const [u] = await db('users')
    .insert({ email, password_hash: await bcrypt.hash(FIXTURE_PASSWORD, 4), is_active: true })
    .returning('id');
  await db('user_profiles').insert({ user_id: u.id, first_name: 'Test', last_name: roleCode, full_name: `Test ${roleCode}` });
  await grantRoleAtOutlets(db, u.id, roleCode, outletIds);
  return { id: u.id as string, email };
}
