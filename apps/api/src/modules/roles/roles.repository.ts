import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { PermissionRow, RoleRow } from '../../db/tables/admin';

/** Queries of the Roles tab (spec 002 §2 Roles); the only place with its SQL. */

type Q = Db | Knex.Transaction;

/** A role with its permission codes (by code) and the number of people holding it anywhere. */
export type RoleWithPermissions = Pick<RoleRow, 'id' | 'code' | 'role_name' | 'description' | 'role_level' | 'scope_type'> & {
  permissions: string[];
  user_count: number;
};

/** Every role by level, then code, with its permissions and holders. */
export async function findRoles(db: Q): Promise<RoleWithPermissions[]> {
  return db('roles as r')
    .select<RoleWithPermissions[]>(
      'r.id',
      'r.code',
      'r.role_name',
      'r.description',
      'r.role_level',
      'r.scope_type',
      db.raw(
        `coalesce((SELECT array_agg(p.code ORDER BY p.code) FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = r.id), '{}') AS permissions`,
      ),
      db.raw('(SELECT count(DISTINCT g.user_id) FROM role_grants g WHERE g.role_id = r.id)::int AS user_count'),
    )
    .orderBy([{ column: 'r.role_level' }, { column: 'r.code' }]);
}

/** Every `bcc.*` permission with its description, by code. */
export async function findPermissions(db: Q): Promise<Pick<PermissionRow, 'id' | 'code' | 'description'>[]> {
  return db('permissions').where('code', 'like', 'bcc.%').orderBy('code').select('id', 'code', 'description');
}

/** A role's id and code, locked FOR UPDATE (inside a transaction); undefined when absent. */
export async function lockRole(db: Q, id: number): Promise<Pick<RoleRow, 'id' | 'code'> | undefined> {
  return db('roles').where({ id }).forUpdate().first('id', 'code');
}

/** A permission's id by code; undefined when absent. */
export async function findPermission(db: Q, code: string): Promise<Pick<PermissionRow, 'id' | 'code'> | undefined> {
  return db('permissions').where({ code }).first('id', 'code');
}

/** Grants a permission to a role; returns whether it was added (false: already held). */
export async function addRolePermission(db: Q, roleId: number, permissionId: number): Promise<boolean> {
  const added = await db('role_permissions')
    .insert({ role_id: roleId, permission_id: permissionId })
    .onConflict(['role_id', 'permission_id'])
    .ignore()
    .returning('role_id');
  return added.length > 0;
}

/** Revokes a permission of a role; returns whether it was held. */
export async function removeRolePermission(db: Q, roleId: number, permissionId: number): Promise<boolean> {
  return (await db('role_permissions').where({ role_id: roleId, permission_id: permissionId }).delete()) > 0;
}
