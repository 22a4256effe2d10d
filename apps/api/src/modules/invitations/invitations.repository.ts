import type { Knex } from 'knex';
import type { InvitationStatus, ScopeType } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type {
  BoardRow as BoardTable,
  InvitationRow as InvitationTable,
  OutletRequestRow as OutletRequestTable,
  OutletRow as OutletTable,
  RoleRow as RoleTable,
  StoreRow as StoreTable,
} from '../../db/tables/admin';

type Q = Db | Knex.Transaction;

/** An invitation row as the service uses it (token hash never leaves the repository's callers). */
export interface InvitationRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  roleIds: number[];
  outletIds: number[];
  storeIds: number[];
  boardIds: number[];
  invitedBy: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
  createdAt: Date;
  sentAt: Date;
}

const COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'role_ids',
  'outlet_ids',
  'store_ids',
  'board_ids',
  'invited_by',
  'expires_at',
  'used_at',
  'revoked_at',
  'revoked_reason',
  'created_at',
  'sent_at',
] as const satisfies readonly (keyof InvitationTable)[];

function toRow(r: Pick<InvitationTable, (typeof COLUMNS)[number]>): InvitationRow {
  return {
    id: r.id,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    roleIds: r.role_ids ?? [],
    outletIds: r.outlet_ids ?? [],
    storeIds: r.store_ids ?? [],
    boardIds: r.board_ids ?? [],
    invitedBy: r.invited_by ?? null,
    expiresAt: new Date(r.expires_at),
    usedAt: r.used_at ? new Date(r.used_at) : null,
    revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
    revokedReason: r.revoked_reason ?? null,
    createdAt: new Date(r.created_at),
    sentAt: new Date(r.sent_at),
  };
}

/** The status of an invitation row (ARCHITECTURE §5): accepted, revoked, expired or pending. */
export function statusOf(r: Pick<InvitationRow, 'usedAt' | 'revokedAt' | 'expiresAt'>, now = new Date()): InvitationStatus {
  if (r.usedAt) return 'accepted';
  if (r.revokedAt) return 'revoked';
  if (r.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}

/** The SQL of `statusOf` over the `i` alias. */
const STATUS_SQL = `CASE WHEN i.used_at IS NOT NULL THEN 'accepted' WHEN i.revoked_at IS NOT NULL THEN 'revoked'
  WHEN i.expires_at <= now() THEN 'expired' ELSE 'pending' END`;

/** The invitation with this token hash; with `lock`, the row is locked FOR UPDATE (inside a transaction). */
export async function findByTokenHash(db: Q, tokenHash: string, lock = false): Promise<InvitationRow | undefined> {
  const q = db('invitations')
    .where({ token_hash: tokenHash })
    .first(...COLUMNS);
  if (lock) q.forUpdate();
  const r = await q;
  return r ? toRow(r) : undefined;
}

/** The invitation with this id; with `lock`, locked FOR UPDATE. */
export async function findById(db: Q, id: string, lock = false): Promise<InvitationRow | undefined> {
  const q = db('invitations')
    .where({ id })
    .first(...COLUMNS);
  if (lock) q.forUpdate();
  const r = await q;
  return r ? toRow(r) : undefined;
}

/** Marks every open (not used, not revoked) invitation to `email` revoked with `reason`; returns their ids. */
export async function revokeOpenForEmail(db: Q, email: string, by: string | null, reason: 'replaced'): Promise<string[]> {
  const rows = await db('invitations')
    .where({ email })
    .whereNull('used_at')
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now(), revoked_by: by, revoked_reason: reason, updated_at: db.fn.now() })
    .returning('id');
  return rows.map((r) => r.id);
}

/** Inserts an invitation; returns its id and expiry. */
export async function insertInvitation(
  db: Q,
  row: {
    email: string;
    firstName: string;
    lastName: string;
    roleIds: number[];
    outletIds: number[];
    storeIds: number[];
    boardIds: number[];
    invitedBy: string | null;
    tokenHash: string | null;
    expiresAt: Date;
  },
): Promise<{ id: string; expiresAt: Date }> {
  const [r] = await db('invitations')
    .insert({
      email: row.email,
      first_name: row.firstName,
      last_name: row.lastName,
      role_ids: row.roleIds,
      outlet_ids: row.outletIds,
      store_ids: row.storeIds,
      board_ids: row.boardIds,
      invited_by: row.invitedBy,
      token_hash: row.tokenHash,
      expires_at: row.expiresAt,
    })
    .returning(['id', 'expires_at']);
  return { id: r.id, expiresAt: new Date(r.expires_at) };
}

/** A new expiry for an open invitation (resend); its token hash is replaced (null: the old link stops working). */
export async function renewToken(db: Q, id: string, tokenHash: string | null, expiresAt: Date): Promise<void> {
  await db('invitations')
    .where({ id })
    .update({ token_hash: tokenHash, expires_at: expiresAt, sent_at: db.fn.now(), updated_at: db.fn.now() });
}

/** Stores the hash of the link's token (when the mail is rendered). */
export async function setTokenHash(db: Q, id: string, tokenHash: string): Promise<void> {
  await db('invitations').where({ id }).update({ token_hash: tokenHash, sent_at: db.fn.now(), updated_at: db.fn.now() });
}

/** Revokes one invitation. */
export async function revoke(db: Q, id: string, by: string | null): Promise<void> {
  await db('invitations')
    .where({ id })
    .update({ revoked_at: db.fn.now(), revoked_by: by, revoked_reason: 'revoked', updated_at: db.fn.now() });
}

/** Marks an invitation used by `userId`. */
export async function markUsed(db: Q, id: string, userId: string): Promise<void> {
  await db('invitations').where({ id }).update({ used_at: db.fn.now(), accepted_user_id: userId, updated_at: db.fn.now() });
}

/** Roles by id: id, code, display name (name, else code), level, the scope type they are granted at. */
export async function rolesByIds(
  db: Q,
  ids: number[],
): Promise<{ id: number; code: string; name: string; level: number; scopeType: ScopeType }[]> {
  if (!ids.length) return [];
  const rows = await db('roles').whereIn('id', ids).select('id', 'code', 'role_name', 'role_level', 'scope_type');
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.role_name || r.code, level: r.role_level, scopeType: r.scope_type }));
}

/**
 * The outlet role a holder of `roleId` becomes a member of an outlet with: the most privileged outlet-level role
 * whose every permission `roleId` holds (Outlet Manager for a super administrator, Outlet Viewer for a store
 * manager or board administrator); undefined when none.
 */
export async function membershipRoleFor(db: Q, roleId: number) {
  const r = await db.raw<{ rows: Pick<RoleTable, 'id' | 'code' | 'role_name' | 'role_level' | 'scope_type'>[] }>(
    `SELECT o.id, o.code, o.role_name, o.role_level, o.scope_type FROM roles o
      WHERE o.scope_type = 'outlet' AND o.id <> ?
        AND EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = o.id)
        AND NOT EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = o.id
                          AND rp.permission_id NOT IN (SELECT permission_id FROM role_permissions WHERE role_id = ?))
      ORDER BY o.role_level, o.id LIMIT 1`,
    [roleId, roleId],
  );
  const row = r.rows[0];
  return row
    ? { id: row.id, code: row.code, name: row.role_name || row.code, level: row.role_level, scopeType: row.scope_type }
    : undefined;
}

/** Stores by id with their active flag and display name. */
export async function storesByIds(db: Q, ids: number[]): Promise<{ id: number; name: string; active: boolean }[]> {
  if (!ids.length) return [];
  return (await db('stores').whereIn('id', ids).select('id', 'name', 'active')).map((r) => ({ id: r.id, name: r.name, active: r.active }));
}

/** Boards by id with their name. */
export async function boardsByIds(db: Q, ids: number[]): Promise<{ id: number; name: string }[]> {
  if (!ids.length) return [];
  return (await db('boards').whereIn('id', ids).select('id', 'name')).map((r) => ({ id: r.id, name: r.name }));
}

/** Outlets by id with their active flag and display name. */
export async function outletsByIds(
  db: Q,
  ids: number[],
): Promise<{ id: number; code: string; name: string; active: boolean; isAdminOutlet: boolean }[]> {
  if (!ids.length) return [];
  const rows = await db('outlets').whereIn('id', ids).select('id', 'outlet_code', 'name', 'active', 'is_admin_outlet');
  return rows.map((r) => ({ id: r.id, code: r.outlet_code, name: r.name, active: r.active, isAdminOutlet: r.is_admin_outlet }));
}

/** Every role with its level and whether it holds `adminOutletPermission` (ordered by level, then code). */
export async function listRoles(db: Q, adminOutletPermission: string) {
  const rows = await db('roles as r')
    .orderBy([{ column: 'r.role_level' }, { column: 'r.code' }])
    .select<
      (Pick<RoleTable, 'id' | 'code' | 'role_name' | 'description' | 'role_level' | 'scope_type'> & { grants_admin_outlet: boolean })[]
    >(
      'r.id',
      'r.code',
      'r.role_name',
      'r.description',
      'r.role_level',
      'r.scope_type',
      db.raw(
        `EXISTS (SELECT 1 FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = r.id AND p.code = ?) AS grants_admin_outlet`,
        [adminOutletPermission],
      ),
    );
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.role_name || r.code,
    description: r.description,
    level: r.role_level,
    grantsAdminOutlet: Boolean(r.grants_admin_outlet),
    scopeType: r.scope_type,
  }));
}

/** Active outlets, optionally restricted to the ids a subquery selects, with board name; ordered by name. */
export async function listActiveOutlets(db: Q, within: Knex.QueryBuilder | null) {
  const q = db('outlets as o')
    .leftJoin('boards as b', 'b.id', 'o.board_id')
    .where('o.active', true)
    .orderBy([{ column: 'o.is_admin_outlet', order: 'desc' }, { column: 'o.name' }, { column: 'o.id' }])
    .select<(Pick<OutletTable, 'id' | 'outlet_code' | 'name' | 'is_admin_outlet' | 'city'> & { board_name: string | null })[]>(
      'o.id',
      'o.outlet_code',
      'o.name',
      'o.is_admin_outlet',
      'o.city',
      'b.name as board_name',
    );
  if (within) q.whereIn('o.id', within);
  const rows = await q;
  return rows.map((r) => ({
    id: r.id,
    code: r.outlet_code,
    name: r.name,
    isAdminOutlet: r.is_admin_outlet,
    boardName: r.board_name ?? null,
    city: r.city ?? null,
  }));
}

/** Active stores, optionally restricted to the ids a subquery selects, with board name; ordered by name. */
export async function listActiveStores(db: Q, within: Knex.QueryBuilder | null) {
  const q = db('stores as s')
    .join('boards as b', 'b.id', 's.board_id')
    .where('s.active', true)
    .orderBy([{ column: 's.name' }, { column: 's.id' }])
    .select<(Pick<StoreTable, 'id' | 'warehouse_code' | 'name' | 'city'> & { board_name: string | null })[]>(
      's.id',
      's.warehouse_code',
      's.name',
      's.city',
      'b.name as board_name',
    );
  if (within) q.whereIn('s.id', within);
  return (await q).map((r) => ({
    id: r.id,
    warehouseCode: r.warehouse_code,
    name: r.name,
    city: r.city ?? null,
    boardName: r.board_name ?? null,
  }));
}

/** Boards, optionally restricted to the ids a subquery selects; ordered by board number. */
export async function listBoards(db: Q, within: Knex.QueryBuilder | null) {
  const q = db('boards as b')
    .orderBy('b.board_number')
    .select<Pick<BoardTable, 'id' | 'board_number' | 'name'>[]>('b.id', 'b.board_number', 'b.name');
  if (within) q.whereIn('b.id', within);
  return (await q).map((r) => ({ id: r.id, boardNumber: r.board_number, name: r.name }));
}

/** The user with this email (id, active flag), or undefined. */
export async function findUserByEmail(db: Q, email: string): Promise<{ id: string; isActive: boolean } | undefined> {
  const r = await db('users').where({ email }).first('id', 'is_active');
  return r ? { id: r.id, isActive: r.is_active } : undefined;
}

/** Creates an account (password already hashed); returns its id. */
export async function insertUser(db: Q, email: string, passwordHash: string): Promise<string> {
  const [r] = await db('users').insert({ email, password_hash: passwordHash }).returning('id');
  return r.id;
}

/** Saves first name, last name, full name and phone of a profile (insert or update). */
export async function upsertProfile(
  db: Q,
  userId: string,
  p: { firstName: string; lastName: string; phone: string | null },
): Promise<void> {
  await db('user_profiles')
    .insert({ user_id: userId, first_name: p.firstName, last_name: p.lastName, full_name: `${p.firstName} ${p.lastName}`, phone: p.phone })
    .onConflict('user_id')
    .merge({
      first_name: p.firstName,
      last_name: p.lastName,
      full_name: `${p.firstName} ${p.lastName}`,
      phone: p.phone,
      updated_at: db.fn.now(),
    });
}

/** First and last name of a user (profile), for mail texts. */
export async function displayName(db: Q, userId: string): Promise<string | undefined> {
  const r = await db('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .where('u.id', userId)
    .first('u.email', 'p.first_name', 'p.last_name');
  if (!r) return undefined;
  return [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email;
}

/** Where an invitation list reaches: everything, or the inviter's own plus those whose places all lie in the subqueries. */
export type InvitationScope = 'all' | { userId: string; outlets: Knex.QueryBuilder; stores: Knex.QueryBuilder; boards: Knex.QueryBuilder };

/** The condition "sent by the user, or every place it names is reached" over the `i` alias. */
function inScope(db: Q, w: Knex.QueryBuilder, scope: Exclude<InvitationScope, 'all'>) {
  w.where('i.invited_by', scope.userId).orWhere((x) =>
    x
      .whereRaw('cardinality(i.outlet_ids) + cardinality(i.store_ids) + cardinality(i.board_ids) > 0')
      .whereRaw('i.outlet_ids <@ ARRAY(?)::integer[]', [scope.outlets])
      .whereRaw('i.store_ids <@ ARRAY(?)::integer[]', [scope.stores])
      .whereRaw('i.board_ids <@ ARRAY(?)::integer[]', [scope.boards]),
  );
}

/**
 * A page of invitations, newest first, optionally by status and email/name search, restricted to `scope`.
 */
export async function listInvitations(
  db: Q,
  opts: {
    status?: InvitationStatus;
    search?: string;
    page: number;
    pageSize: number;
    scope: InvitationScope;
  },
) {
  const base = db('invitations as i');
  const scope = opts.scope;
  if (scope !== 'all') base.where((w) => inScope(db, w, scope));
  if (opts.status) base.whereRaw(`(${STATUS_SQL}) = ?`, [opts.status]);
  if (opts.search) {
    const like = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => w.whereILike('i.email', like).orWhereILike('i.first_name', like).orWhereILike('i.last_name', like));
  }
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const rows = await base
    .clone()
    .leftJoin('users as inv', 'inv.id', 'i.invited_by')
    .orderBy([{ column: 'i.created_at', order: 'desc' }, { column: 'i.id' }])
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize)
    .select<
      (InvitationTable & { invited_by_email: string | null; role_labels: string[]; outlet_labels: string[]; store_labels: string[] })[]
    >(
      'i.*',
      'inv.email as invited_by_email',
      db.raw(
        'ARRAY(SELECT coalesce(r.role_name, r.code) FROM roles r WHERE r.id = ANY(i.role_ids) ORDER BY r.role_level, r.code) AS role_labels',
      ),
      db.raw('ARRAY(SELECT o.name FROM outlets o WHERE o.id = ANY(i.outlet_ids) ORDER BY o.name) AS outlet_labels'),
      db.raw('ARRAY(SELECT s.name FROM stores s WHERE s.id = ANY(i.store_ids) ORDER BY s.name) AS store_labels'),
    );
  return {
    total: Number(n),
    items: rows.map((r) => ({
      ...toRow(r),
      invitedByEmail: r.invited_by_email ?? null,
      roleLabels: r.role_labels,
      outletLabels: r.outlet_labels,
      storeLabels: r.store_labels,
    })),
  };
}

/** Is this invitation in the caller's scope (sent by them, or every place it names reached)? */
export async function invitationInScope(db: Q, id: string, scope: InvitationScope): Promise<boolean> {
  const q = db('invitations as i').where('i.id', id);
  if (scope !== 'all') q.andWhere((w) => inScope(db, w, scope));
  return Boolean(await q.first('i.id'));
}

// ---- outlet requests ----

export interface OutletRequestRow {
  id: number;
  status: 'pending' | 'approved' | 'rejected';
  userId: string;
  userEmail: string;
  userName: string | null;
  outletId: number;
  outletName: string;
  outletCode: string;
  boardName: string | null;
  createdAt: string;
  decidedAt: string | null;
  decidedByEmail: string | null;
  reason: string | null;
}

function outletRequestQuery(db: Q) {
  return db('outlet_requests as r')
    .join('users as u', 'u.id', 'r.user_id')
    .leftJoin('user_profiles as p', 'p.user_id', 'r.user_id')
    .join('outlets as o', 'o.id', 'r.outlet_id')
    .leftJoin('boards as b', 'b.id', 'o.board_id')
    .leftJoin('users as d', 'd.id', 'r.decided_by');
}
/** A row of `outletRequestQuery` selecting OUTLET_REQUEST_COLUMNS. */
type OutletRequestJoined = Pick<
  OutletRequestTable,
  'id' | 'status' | 'user_id' | 'outlet_id' | 'created_at' | 'decided_at' | 'decision_reason'
> & {
  user_email: string;
  first_name: string | null;
  last_name: string | null;
  outlet_name: string;
  outlet_code: string;
  board_name: string | null;
  decided_by_email: string | null;
};
const OUTLET_REQUEST_COLUMNS = [
  'r.id',
  'r.status',
  'r.user_id',
  'u.email as user_email',
  'p.first_name',
  'p.last_name',
  'r.outlet_id',
  'o.name as outlet_name',
  'o.outlet_code',
  'b.name as board_name',
  'r.created_at',
  'r.decided_at',
  'd.email as decided_by_email',
  'r.decision_reason',
];
function toOutletRequest(r: OutletRequestJoined): OutletRequestRow {
  return {
    id: r.id,
    status: r.status,
    userId: r.user_id,
    userEmail: r.user_email,
    userName: [r.first_name, r.last_name].filter(Boolean).join(' ') || null,
    outletId: r.outlet_id,
    outletName: r.outlet_name,
    outletCode: r.outlet_code,
    boardName: r.board_name ?? null,
    createdAt: new Date(r.created_at).toISOString(),
    decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    decidedByEmail: r.decided_by_email ?? null,
    reason: r.decision_reason ?? null,
  };
}

/** A page of outlet requests (pending first, then newest), by status, within the manageable outlets (null: all). */
export async function listOutletRequests(
  db: Q,
  opts: { status?: string; page: number; pageSize: number; manageable: Knex.QueryBuilder | null },
) {
  const base = outletRequestQuery(db);
  if (opts.manageable) base.whereIn('r.outlet_id', opts.manageable);
  if (opts.status) base.where('r.status', opts.status);
  const [{ n }] = await base.clone().count<{ n: string }[]>('* as n');
  const rows = await base
    .clone()
    .orderByRaw(`(r.status = 'pending') DESC, r.created_at DESC, r.id DESC`)
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize)
    .select<OutletRequestJoined[]>(OUTLET_REQUEST_COLUMNS);
  return { total: Number(n), items: rows.map(toOutletRequest) };
}

/** One outlet request with its labels; `lock` locks the request row FOR UPDATE. */
export async function findOutletRequest(db: Q, id: number, lock = false): Promise<OutletRequestRow | undefined> {
  if (lock) await db('outlet_requests').where({ id }).forUpdate().first('id');
  const [r] = await outletRequestQuery(db).where('r.id', id).select<OutletRequestJoined[]>(OUTLET_REQUEST_COLUMNS).limit(1);
  return r ? toOutletRequest(r) : undefined;
}

/** Records a decision on a pending request. */
export async function decideOutletRequest(
  db: Q,
  id: number,
  d: { status: 'approved' | 'rejected'; by: string; reason?: string },
): Promise<void> {
  await db('outlet_requests')
    .where({ id, status: 'pending' })
    .update({ status: d.status, decided_at: db.fn.now(), decided_by: d.by, decision_reason: d.reason ?? null });
}

/** The least privileged outlet-level role (the default of an approval): its id, or undefined. */
export async function leastOutletRole(db: Q): Promise<number | undefined> {
  const r = await db('roles')
    .where('scope_type', 'outlet')
    .orderBy([{ column: 'role_level', order: 'desc' }, { column: 'id' }])
    .first('id');
  return r?.id;
}
