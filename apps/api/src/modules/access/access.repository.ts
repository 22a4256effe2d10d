import type { Db } from '../../db/knex';

export interface Principal {
  userId: string;
  email: string;
  isActive: boolean;
  permissions: Set<string>;
}

/** Loads a user with the union of their roles' permission codes in one query; undefined when absent. */
export async function findPrincipal(db: Db, userId: string): Promise<Principal | undefined> {
  const row = await db('users as u')
    .leftJoin('user_roles as ur', 'ur.user_id', 'u.id')
    .leftJoin('role_permissions as rp', 'rp.role_id', 'ur.role_id')
    .leftJoin('permissions as p', 'p.id', 'rp.permission_id')
    .where('u.id', userId)
    .groupBy('u.id')
    .first('u.id', 'u.email', 'u.is_active', db.raw(`coalesce(array_agg(DISTINCT p.code) FILTER (WHERE p.code IS NOT NULL), '{}') AS codes`));
  if (!row) return undefined;
  return { userId: row.id, email: row.email, isActive: row.is_active, permissions: new Set<string>(row.codes) };
}
