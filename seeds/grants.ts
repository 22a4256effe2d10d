import type { Knex } from 'knex';

/**
 * Writing scoped grants (ARCHITECTURE §11) from seeds, fixtures and benchmarks. The API grants through
 * modules/access (which applies the granting rules); these helpers write what an operator or a fixture
 * states, with no rules, so a fixture reads as "this person is a store manager of these outlets' stores".
 */

type Db = Knex | Knex.Transaction;

/**
 * Grants `roleCode` to a user at `scopeIds` of the role's scope type (board, store or outlet ids; none for the
 * global super_admin role). Existing grants are kept. Throws for an unknown role code.
 */
export async function grantRole(db: Db, userId: string, roleCode: string, scopeIds: number[] = [], grantedBy: string | null = null) {
  const role = await db('roles').where({ code: roleCode }).first('id', 'scope_type');
  if (!role) throw new Error(`unknown role ${roleCode}`);
  const column = { board: 'board_id', store: 'store_id', outlet: 'outlet_id' }[role.scope_type as string];
  const rows = column
    ? scopeIds.map((id) => ({ user_id: userId, role_id: role.id, scope_type: role.scope_type, [column]: id, granted_by: grantedBy }))
    : [{ user_id: userId, role_id: role.id, scope_type: role.scope_type, granted_by: grantedBy }];
  if (rows.length) await db('role_grants').insert(rows).onConflict().ignore();
}

/**
 * Grants `roleCode` "with these outlets", as the upgrade to scoped grants converted a role and a person's
 * outlets (migration 2026113000010001): an outlet role at each outlet; a store role at each store linked to
 * them; a board role at the boards of the outlets and of their stores; super_admin globally.
 * For a role that is not an outlet role, the person also becomes a member of each outlet with the most
 * privileged outlet role whose every permission the role holds (Outlet Viewer for a store manager, Outlet
 * Manager for a super administrator), as the upgrade kept their shopping there.
 */
export async function grantRoleAtOutlets(db: Db, userId: string, roleCode: string, outletIds: number[]) {
  const role = await db('roles').where({ code: roleCode }).first('id', 'scope_type');
  if (!role) throw new Error(`unknown role ${roleCode}`);
  if (role.scope_type === 'outlet' || !outletIds.length) return grantRole(db, userId, roleCode, outletIds);
  if (role.scope_type === 'store') {
    const stores = await db('store_outlets as so').whereIn('so.outlet_id', outletIds).distinct('so.store_id as id');
    await grantRole(
      db,
      userId,
      roleCode,
      stores.map((s: { id: number }) => s.id),
    );
  } else if (role.scope_type === 'board') {
    const boards = await db
      .select('board_id as id')
      .from(db('outlets').whereIn('id', outletIds).whereNotNull('board_id').select('board_id').as('b'))
      .union(db('store_outlets as so').join('stores as s', 's.id', 'so.store_id').whereIn('so.outlet_id', outletIds).select('s.board_id'));
    await grantRole(
      db,
      userId,
      roleCode,
      boards.map((b: { id: number }) => b.id),
    );
  } else {
    await grantRole(db, userId, roleCode);
  }
  const member = await db.raw(
    `SELECT o.id FROM roles o
      WHERE o.scope_type = 'outlet'
        AND EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = o.id)
        AND NOT EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = o.id
                          AND rp.permission_id NOT IN (SELECT permission_id FROM role_permissions WHERE role_id = ?))
      ORDER BY o.role_level, o.id LIMIT 1`,
    [role.id],
  );
  const memberRole = member.rows[0]?.id as number | undefined;
  if (memberRole !== undefined)
    await db('role_grants')
      .insert(outletIds.map((outlet_id) => ({ user_id: userId, role_id: memberRole, scope_type: 'outlet', outlet_id })))
      .onConflict()
      .ignore();
}
