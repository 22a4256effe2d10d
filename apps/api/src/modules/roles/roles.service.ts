import { PROBLEM_CODES, ADMIN_USER_MESSAGES as M, ROLES, type AdminRole } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { ConflictError, NotFoundError } from '../../http/errors';
import type { Actor } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import * as repo from './roles.repository';
import type { RoleWithPermissions } from './roles.repository';

/**
 * Roles and their permissions (spec 002 §2 Roles, §4 "permission toggle applies at once"; ARCHITECTURE §9).
 *
 * A change applies to every holder of the role on their next request: permissions are loaded per request,
 * except on the catalog routes (GET /stores/{id}/products…), which reuse a loaded principal for at most
 * 2 seconds (stores.routes PRINCIPAL_CACHE_MS), so there a grant or a revoke takes effect within 2 s.
 * The super_admin role is immutable (409 `role_immutable`), so no change can lock everyone out.
 */

/** Request facts a write records in the audit log. */
export interface WriteMeta {
  ip?: string | null;
}

/** Every role (by level, then code) with the scope it is granted at, its permission codes and number of holders. */
export async function listRoles(db: Db): Promise<{ items: AdminRole[] }> {
  const rows = await repo.findRoles(db);
  return { items: rows.map(toRole) };
}

function toRole(r: RoleWithPermissions): AdminRole {
  return {
    id: r.id,
    code: r.code,
    name: r.role_name,
    description: r.description,
    level: r.role_level,
    scopeType: r.scope_type,
    permissions: r.permissions,
    immutable: r.code === ROLES.superAdmin,
    userCount: r.user_count,
  };
}

/** Every permission code (`bcc.*`) with its description, by code. */
export async function listPermissions(db: Db) {
  const rows = await repo.findPermissions(db);
  return { items: rows.map((r) => ({ id: r.id, code: r.code, description: r.description })) };
}

/**
 * Grants (`grant = true`) or revokes a permission of a role; a no-op when already so (no audit row).
 * 404 for an unknown role or code; 409 `role_immutable` for the super_admin role.
 */
export async function setRolePermission(
  db: Db,
  actor: Actor,
  roleId: number,
  code: string,
  grant: boolean,
  meta: WriteMeta,
): Promise<AdminRole> {
  await db.transaction(async (trx) => {
    const role = await repo.lockRole(trx, roleId);
    if (!role) throw new NotFoundError('Role not found');
    const perm = await repo.findPermission(trx, code);
    if (!perm) throw new NotFoundError('Permission not found');
    if (role.code === ROLES.superAdmin) throw new ConflictError(M.roleImmutable, PROBLEM_CODES.roleImmutable);
    const changed = grant ? await repo.addRolePermission(trx, roleId, perm.id) : await repo.removeRolePermission(trx, roleId, perm.id);
    if (changed) {
      await recordAudit(
        trx,
        { userId: actor.userId, email: actor.email },
        {
          action: grant ? 'role.permission.granted' : 'role.permission.revoked',
          entityType: 'role',
          entityId: roleId,
          ip: meta.ip,
          details: { role: role.code, permission: code },
        },
      );
    }
  });
  const role = (await listRoles(db)).items.find((r) => r.id === roleId);
  if (!role) throw new NotFoundError('Role not found');
  return role;
}
