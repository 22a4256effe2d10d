import type { StoreSummary } from '@portal/contracts';
import type { Db } from '../../db/knex';

/** The ACTIVE stores linked to an outlet (store_outlets), with their board, ordered by name (spec 000 §3). */
export async function listActiveStores(db: Db, outletId: number): Promise<StoreSummary[]> {
  const rows = await db('store_outlets as so')
    .join('stores as s', 's.id', 'so.store_id')
    .join('boards as b', 'b.id', 's.board_id')
    .where({ 'so.outlet_id': outletId, 's.active': true })
    .orderBy([{ column: 's.name' }, { column: 's.id' }])
    .select(
      's.id',
      's.name',
      's.warehouse_code',
      's.address',
      's.city',
      's.state',
      's.zip_code',
      's.phone',
      's.active',
      'b.board_number',
      'b.name as board_name',
    );
  return rows.map((r) => ({
    id: r.id,
    warehouseId: r.id,
    name: r.name || r.warehouse_code,
    warehouseCode: r.warehouse_code,
    address: r.address,
    city: r.city,
    state: r.state,
    zipCode: r.zip_code,
    phone: r.phone,
    boardNumber: r.board_number,
    boardName: r.board_name,
    active: r.active,
  }));
}

/** Is the outlet there and active? */
export async function isActive(db: Db, outletId: number): Promise<boolean> {
  return Boolean(await db('outlets').where({ id: outletId, active: true }).first('id'));
}
