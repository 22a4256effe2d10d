import type { Knex } from 'knex';
import { DEFAULT_ROLES, PERMISSION_DESCRIPTIONS } from '@portal/contracts';

/**
 * Reference data: every permission code of spec 000 §6 and spec 002 §6, the default role
 * catalogue with role levels (lower = more privileged), the scope each is granted at (ARCHITECTURE §11) and their permissions. Idempotent: upserts by code
 * and adds missing role-permission links; it never removes links an administrator added.
 */
export async function seedReference(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    const perms = Object.entries(PERMISSION_DESCRIPTIONS).map(([code, description]) => ({ code, description }));
    await trx('permissions').insert(perms).onConflict('code').merge(['description']);
    await trx('roles')
      .insert(
        DEFAULT_ROLES.map((r) => ({
          code: r.code,
          role_name: r.roleName,
          description: r.description,
          role_level: r.roleLevel,
          scope_type: r.scopeType,
        })),
      )
      .onConflict('code')
      .ignore();
    const roleIds = new Map<string, number>((await trx('roles').select('id', 'code')).map((r) => [r.code, r.id]));
    const permIds = new Map<string, number>((await trx('permissions').select('id', 'code')).map((p) => [p.code, p.id]));
    const links = DEFAULT_ROLES.flatMap((r) =>
      r.permissions.map((p) => ({ role_id: roleIds.get(r.code)!, permission_id: permIds.get(p)! })),
    );
    await trx('role_permissions').insert(links).onConflict(['role_id', 'permission_id']).ignore();
  });
}
