import type { MyOutlet, MyRole, Profile, RequestableOutlet } from '@portal/contracts';
import type { Db } from '../../db/knex';

/** The account fields /me shows. */
export interface Account {
  id: string;
  email: string;
  isActive: boolean;
  lastLoginAt: string | null;
}

/** An accessible outlet with the user's last store on it (user_outlets.last_selected_store_id). */
export interface AccessibleOutlet extends MyOutlet {
  assignmentLastStoreId: number | null;
}

/** The account of a user id; undefined when absent. */
export async function findAccount(db: Db, userId: string): Promise<Account | undefined> {
  const r = await db('users').where({ id: userId }).first('id', 'email', 'is_active', 'last_login_at');
  return r
    ? { id: r.id, email: r.email, isActive: r.is_active, lastLoginAt: r.last_login_at ? new Date(r.last_login_at).toISOString() : null }
    : undefined;
}

/** The user_profiles row as a Profile (email from the account); undefined when there is no row. */
export async function findProfile(db: Db, userId: string): Promise<Profile | undefined> {
  const r = await db('user_profiles as p')
    .join('users as u', 'u.id', 'p.user_id')
    .where('p.user_id', userId)
    .first(
      'p.user_id',
      'u.email',
      'p.first_name',
      'p.last_name',
      'p.full_name',
      'p.phone',
      'p.last_selected_outlet_id',
      'p.last_selected_store_id',
    );
  return r
    ? {
        userId: r.user_id,
        email: r.email,
        firstName: r.first_name,
        lastName: r.last_name,
        fullName: r.full_name,
        phone: r.phone,
        lastSelectedOutletId: r.last_selected_outlet_id,
        lastSelectedStoreId: r.last_selected_store_id,
      }
    : undefined;
}

/** Inserts or updates the names and phone of a profile (full_name = first + last). */
export async function upsertProfileNames(
  db: Db,
  userId: string,
  p: { firstName: string; lastName: string; phone: string | null },
): Promise<void> {
  const values = {
    first_name: p.firstName,
    last_name: p.lastName,
    full_name: `${p.firstName} ${p.lastName}`,
    phone: p.phone,
    updated_at: db.fn.now(),
  };
  await db('user_profiles')
    .insert({ user_id: userId, ...values })
    .onConflict('user_id')
    .merge(values);
}

/** Inserts or updates the saved outlet and store of a profile. */
export async function upsertSelection(db: Db, userId: string, outletId: number | null, storeId: number | null): Promise<void> {
  const values = { last_selected_outlet_id: outletId, last_selected_store_id: storeId, updated_at: db.fn.now() };
  await db('user_profiles')
    .insert({ user_id: userId, ...values })
    .onConflict('user_id')
    .merge(values);
}

/** Remembers the last store chosen on one of the user's outlets. */
export async function updateAssignmentLastStore(db: Db, userId: string, outletId: number, storeId: number): Promise<void> {
  await db('user_outlets').where({ user_id: userId, outlet_id: outletId }).update({ last_selected_store_id: storeId });
}

/**
 * The user's roles, processed as spec 000 §3 says, sorted by role_level descending (§6), then code: each role
 * once, with where it is held (scope type) and at how many places (ARCHITECTURE §11; 0 for a global grant).
 */
export async function listRoles(db: Db, userId: string): Promise<MyRole[]> {
  const rows = await db('role_grants as g')
    .join('roles as r', 'r.id', 'g.role_id')
    .where('g.user_id', userId)
    .groupBy('r.id')
    .orderBy([
      { column: 'r.role_level', order: 'desc' },
      { column: 'r.code', order: 'asc' },
    ])
    .select(
      'r.id',
      'r.code',
      'r.role_name',
      'r.description',
      'r.role_level',
      'r.scope_type',
      db.raw('count(g.scope_id)::int AS scope_count'),
    );
  return rows.map((r) => ({
    id: String(r.id),
    roleCode: r.code,
    roleName: r.role_name,
    description: r.description,
    roleLevel: r.role_level,
    permissions: [],
    scopeType: r.scope_type,
    scopeCount: r.scope_count,
  }));
}

/**
 * The accessible-outlet records with board (spec 000 §3): active outlets in user_outlets, with the board
 * name (the outlet's board, else its default store's), and the ids, names and codes of the ACTIVE stores
 * linked to each (ordered by store name). Outlets with an active store first, each group ordered by name.
 */
export async function listAccessibleOutlets(db: Db, userId: string): Promise<AccessibleOutlet[]> {
  const rows = await db('user_outlets as uo')
    .join('outlets as o', 'o.id', 'uo.outlet_id')
    .leftJoin('boards as b', 'b.id', 'o.board_id')
    .leftJoin('stores as ds', 'ds.id', 'o.default_store_id')
    .leftJoin('boards as sb', 'sb.id', 'ds.board_id')
    .leftJoin('store_outlets as so', 'so.outlet_id', 'o.id')
    .leftJoin('stores as s', function () {
      this.on('s.id', '=', 'so.store_id').andOn('s.active', '=', db.raw('true'));
    })
    .where({ 'uo.user_id': userId, 'o.active': true })
    .groupBy('o.id', 'uo.last_selected_store_id', 'b.name', 'sb.name')
    // Outlets a buyer can shop from (an active store linked) first, then by name: a store-less outlet just
    // granted never becomes the default pick of the selection menu.
    .orderByRaw('count(s.id) = 0, o.name, o.id')
    .select(
      'o.id',
      'o.outlet_code',
      'o.name',
      'o.is_admin_outlet',
      'o.active',
      'o.city',
      'o.state',
      'o.phone',
      'o.email',
      'o.default_store_id',
      'uo.last_selected_store_id',
      db.raw('coalesce(b.name, sb.name) AS board_name'),
      db.raw(`coalesce(array_agg(s.id ORDER BY s.name, s.id) FILTER (WHERE s.id IS NOT NULL), '{}') AS store_ids`),
      db.raw(`coalesce(array_agg(s.name ORDER BY s.name, s.id) FILTER (WHERE s.id IS NOT NULL), '{}') AS store_names`),
      db.raw(`coalesce(array_agg(s.warehouse_code ORDER BY s.name, s.id) FILTER (WHERE s.id IS NOT NULL), '{}') AS store_codes`),
    );
  return rows.map((r) => ({
    outletId: r.id,
    outletCode: r.outlet_code,
    outletName: r.name,
    isAdminOutlet: r.is_admin_outlet,
    outletActive: r.active,
    outletCity: r.city,
    outletState: r.state,
    outletPhone: r.phone,
    outletEmail: r.email,
    boardName: r.board_name,
    defaultStoreId: r.default_store_id,
    storeIds: r.store_ids,
    storeNames: r.store_names,
    storeCodes: r.store_codes,
    assignmentLastStoreId: r.last_selected_store_id,
  }));
}

/** Active outlets the user is not assigned to, with board name, ordered by name (spec 000 §2, §6). */
export async function listRequestableOutlets(db: Db, userId: string): Promise<RequestableOutlet[]> {
  const rows = await db('outlets as o')
    .leftJoin('boards as b', 'b.id', 'o.board_id')
    .leftJoin('stores as ds', 'ds.id', 'o.default_store_id')
    .leftJoin('boards as sb', 'sb.id', 'ds.board_id')
    .where({ 'o.active': true, 'o.is_admin_outlet': false })
    .whereNotExists(db('user_outlets as uo').whereRaw('uo.outlet_id = o.id').andWhere('uo.user_id', userId).select(db.raw('1')))
    .orderBy([{ column: 'o.name' }, { column: 'o.id' }])
    .select('o.id', 'o.name', 'o.outlet_code', db.raw('coalesce(b.name, sb.name) AS board_name'));
  return rows.map((r) => ({ outletId: r.id, outletName: r.name, outletCode: r.outlet_code, boardName: r.board_name }));
}

/** An outlet with whether it is active, an admin outlet, and assigned to the user; undefined when absent. */
export async function findOutletForRequest(
  db: Db,
  userId: string,
  outletId: number,
): Promise<{ id: number; name: string; outletCode: string; active: boolean; isAdminOutlet: boolean; assigned: boolean } | undefined> {
  const r = await db('outlets as o')
    .where('o.id', outletId)
    .first(
      'o.id',
      'o.name',
      'o.outlet_code',
      'o.active',
      'o.is_admin_outlet',
      db.raw('EXISTS (SELECT 1 FROM user_outlets uo WHERE uo.outlet_id = o.id AND uo.user_id = ?) AS assigned', [userId]),
    );
  return r
    ? { id: r.id, name: r.name, outletCode: r.outlet_code, active: r.active, isAdminOutlet: r.is_admin_outlet, assigned: r.assigned }
    : undefined;
}

/** Is there a pending request of this user for this outlet? */
export async function hasPendingRequest(db: Db, userId: string, outletId: number): Promise<boolean> {
  return Boolean(await db('outlet_requests').where({ user_id: userId, outlet_id: outletId, status: 'pending' }).first('id'));
}

/** Inserts a pending outlet request; returns its id and creation time. */
export async function insertOutletRequest(db: Db, userId: string, outletId: number): Promise<{ id: number; createdAt: string }> {
  const [r] = await db('outlet_requests').insert({ user_id: userId, outlet_id: outletId }).returning(['id', 'created_at']);
  return { id: r.id, createdAt: new Date(r.created_at).toISOString() };
}
