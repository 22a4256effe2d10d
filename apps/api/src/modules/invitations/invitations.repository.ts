import type { Knex } from 'knex';
import type { InvitationStatus } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { InvitationRow as InvitationTable } from '../../db/tables/admin';

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
