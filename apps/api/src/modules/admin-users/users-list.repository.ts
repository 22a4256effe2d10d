import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { Actor } from '../access/access.service';
import { usersInReach } from '../access/access.service';
import { USER_MANAGEMENT_CODES } from '../access/grants.service';

/**
 * Queries of the users list at scale (ARCHITECTURE §5 "Administration at scale"): the scoped users with the
 * filters, sorted on an index (users.sort_name, users.email, users.last_login_at), paged by offset or by the
 * name keyset of the earlier cursor form, counted, and read in batches for the export. Scope comes from
 * modules/access (ARCHITECTURE §11).
 */

type Q = Db | Knex.Transaction;

/** The filters of the users list (status invited is served by the invitations, not here). */
export interface UserListFilter {
  search?: string;
  role?: string;
  outletId?: number;
  storeId?: number;
  status?: 'active' | 'inactive';
}
export type UserSortKey = 'name' | 'email' | 'lastLogin' | 'status';
export interface UserSort {
  key: UserSortKey;
  desc: boolean;
}

/** One row of the list, before the roles, outlets and canEdit are added. */
export interface UserListRow {
  id: string;
  email: string;
  isActive: boolean;
  fullName: string | null;
  lastLoginAt: Date | null;
  sortKey: string;
}

const DISPLAY_NAME = `coalesce(nullif(btrim(p.full_name), ''), nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''))`;
/** Escapes LIKE wildcards so a search is taken literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The users the caller may see (super administrators: everyone holding a grant) that match `f`. */
function filtered(db: Q, actor: Actor, f: UserListFilter): Knex.QueryBuilder {
  const scope = usersInReach(db, actor, USER_MANAGEMENT_CODES);
  const q = db('users as u');
  // Everyone holding a grant (users.has_grant, kept by a trigger on role_grants): one partial index to count.
  if (!scope) q.where('u.has_grant', true);
  else q.whereIn('u.id', scope);
  if (f.search) {
    const pattern = `%${likeEscape(f.search.toLowerCase())}%`;
    q.where((w) => w.whereRaw('u.sort_name LIKE ?', [pattern]).orWhereRaw('u.email::text ILIKE ?', [pattern]));
  }
  // By the role's id (the planner knows how many grants each role has), not a join on its code.
  if (f.role) q.whereIn('u.id', db('role_grants').where('role_id', db('roles').where('code', f.role).select('id')).select('user_id'));
  if (f.outletId !== undefined) q.whereIn('u.id', db('user_outlets').where('outlet_id', f.outletId).select('user_id'));
  if (f.storeId !== undefined) {
    const storeId = f.storeId;
    q.whereIn('u.id', (sub) =>
      sub
        .from('role_grants')
        .where('store_id', storeId)
        .select('user_id')
        .union((u) =>
          u
            .from('user_outlets as uo')
            .join('store_outlets as so', 'so.outlet_id', 'uo.outlet_id')
            .where('so.store_id', storeId)
            .select('uo.user_id'),
        ),
    );
  }
  if (f.status) q.where('u.is_active', f.status === 'active');
  return q;
}

/** ORDER BY of a sort, on an index where it matters (users_sort_name_idx, users_email_key, users_last_login_idx), ties by id; status: inactive first (asc), then by name. */
function orderOf(sort: UserSort): string {
  const dir = sort.desc ? 'DESC' : 'ASC';
  if (sort.key === 'email') return `u.email ${dir}, u.id ${dir}`;
  if (sort.key === 'status') return `u.is_active ${dir}, u.sort_name, u.id`;
  if (sort.key === 'lastLogin')
    return sort.desc ? 'u.last_login_at DESC NULLS LAST, u.id ASC' : 'u.last_login_at ASC NULLS FIRST, u.id DESC';
  return `u.sort_name ${dir}, u.id ${dir}`;
}

const columns = (db: Q) => [
  'u.id',
  'u.email',
  'u.is_active',
  'u.last_login_at',
  'u.sort_name',
  db.raw(`(SELECT ${DISPLAY_NAME} FROM user_profiles p WHERE p.user_id = u.id) AS full_name`),
];

type RawRow = { id: string; email: string; is_active: boolean; last_login_at: Date | null; sort_name: string; full_name: string | null };
const toRow = (r: RawRow): UserListRow => ({
  id: r.id,
  email: r.email,
  isActive: r.is_active,
  fullName: r.full_name,
  lastLoginAt: r.last_login_at,
  sortKey: r.sort_name,
});

/** One page (offset) of the scoped, filtered users in `sort` order. */
export async function pageOfUsers(
  db: Q,
  actor: Actor,
  f: UserListFilter,
  sort: UserSort,
  page: { offset: number; limit: number },
): Promise<UserListRow[]> {
  const rows: RawRow[] = await filtered(db, actor, f).select(columns(db)).orderByRaw(orderOf(sort)).limit(page.limit).offset(page.offset);
  return rows.map(toRow);
}

/** The earlier cursor form: users by name (then id) after the keyset `after`. */
export async function usersAfter(
  db: Q,
  actor: Actor,
  f: UserListFilter,
  after: { key: string; id: string } | undefined,
  limit: number,
): Promise<UserListRow[]> {
  const q = filtered(db, actor, f).select(columns(db)).orderByRaw('u.sort_name, u.id').limit(limit);
  if (after) q.andWhereRaw('(u.sort_name, u.id) > (?, ?::uuid)', [after.key, after.id]);
  return ((await q) as RawRow[]).map(toRow);
}

/** How many scoped users match `f`. */
export async function countFiltered(db: Q, actor: Actor, f: UserListFilter): Promise<number> {
  const row = await filtered(db, actor, f).count<{ n: string }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** The ids of the scoped users matching `f` in `sort` order, at most `limit`. */
export async function idsOf(db: Q, actor: Actor, f: UserListFilter, sort: UserSort, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await filtered(db, actor, f).select('u.id').orderByRaw(orderOf(sort)).limit(limit);
  return rows.map((r) => r.id);
}

/** Which of `ids` are users (the rest are not, e.g. invitation rows' ids or unknown). */
export async function existingUserIds(db: Q, ids: string[]): Promise<Set<string>> {
  const uuids = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (!uuids.length) return new Set();
  return new Set((await db('users').whereIn('id', uuids).select('id')).map((r) => r.id));
}
