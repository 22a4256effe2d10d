import type { Db } from '../../db/knex';

/** A user account as sign-in sees it; the hash never leaves the auth module. */
export interface UserAccount {
  id: string;
  email: string;
  passwordHash: string;
  isActive: boolean;
}

/** One refresh-token row of `auth_sessions` (a family shares `familyId`). */
export interface SessionRow {
  id: string;
  userId: string;
  familyId: string;
  expiresAt: Date;
  lastUsedAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

/** One row of `password_reset_tokens`. */
export interface ResetTokenRow {
  id: string;
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** An `audit_log` entry (who, what, from where). */
export interface AuditEntry {
  action: string;
  userId?: string | null;
  actorEmail?: string | null;
  entityType?: string;
  entityId?: string;
  ip?: string | null;
  details?: Record<string, unknown>;
}

const toAccount = (r: { id: string; email: string; password_hash: string; is_active: boolean }): UserAccount => ({
  id: r.id,
  email: r.email,
  passwordHash: r.password_hash,
  isActive: r.is_active,
});

/** The account with this email (citext: case-insensitive); undefined when absent. */
export async function findUserByEmail(db: Db, email: string): Promise<UserAccount | undefined> {
  const r = await db('users').where({ email }).first('id', 'email', 'password_hash', 'is_active');
  return r ? toAccount(r) : undefined;
}

/**
 * The account that signs in with this E.164 phone (`users.phone`): the active one when there is one (the
 * partial unique index allows one), else a deactivated holder (refused after the password); undefined when none.
 */
export async function findUserByPhone(db: Db, phone: string): Promise<UserAccount | undefined> {
  const r = await db('users')
    .where({ phone })
    .orderBy([
      { column: 'is_active', order: 'desc' },
      { column: 'created_at', order: 'asc' },
    ])
    .first('id', 'email', 'password_hash', 'is_active');
  return r ? toAccount(r) : undefined;
}

/** Does another active account (not `userId`) sign in with this E.164 phone? */
export async function phoneTakenByOther(db: Db, phone: string, userId: string): Promise<boolean> {
  const r = await db('users').where({ phone, is_active: true }).whereNot({ id: userId }).first('id');
  return r !== undefined;
}

/** The account with this id; undefined when absent. */
export async function findUserById(db: Db, id: string): Promise<UserAccount | undefined> {
  const r = await db('users').where({ id }).first('id', 'email', 'password_hash', 'is_active');
  return r ? toAccount(r) : undefined;
}

/** Records a successful sign-in time. */
export async function updateLastLogin(db: Db, userId: string): Promise<void> {
  await db('users').where({ id: userId }).update({ last_login_at: db.fn.now() });
}

/** Replaces the stored bcrypt hash. */
export async function updatePasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db('users').where({ id: userId }).update({ password_hash: passwordHash, updated_at: db.fn.now() });
}

/** Inserts a refresh-token row; returns its id. */
export async function insertSession(
  db: Db,
  s: { userId: string; familyId: string; tokenHash: string; expiresAt: Date; ip?: string | null; userAgent?: string | null },
): Promise<string> {
  const [row] = await db('auth_sessions')
    .insert({
      user_id: s.userId,
      family_id: s.familyId,
      token_hash: s.tokenHash,
      expires_at: s.expiresAt,
      ip: s.ip ?? null,
      user_agent: s.userAgent?.slice(0, 500) ?? null,
    })
    .returning('id');
  return row.id;
}

/** The session row of a token hash, locked for update (call inside a transaction); undefined when absent. */
export async function findSessionByHashForUpdate(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
  const r = await db('auth_sessions')
    .where({ token_hash: tokenHash })
    .forUpdate()
    .first('id', 'user_id', 'family_id', 'expires_at', 'last_used_at', 'rotated_at', 'revoked_at');
  return r
    ? {
        id: r.id,
        userId: r.user_id,
        familyId: r.family_id,
        expiresAt: r.expires_at,
        lastUsedAt: r.last_used_at,
        rotatedAt: r.rotated_at,
        revokedAt: r.revoked_at,
      }
    : undefined;
}

/** The session row of a token hash without locking; undefined when absent. */
export async function findSessionByHash(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
  const r = await db('auth_sessions')
    .where({ token_hash: tokenHash })
    .first('id', 'user_id', 'family_id', 'expires_at', 'last_used_at', 'rotated_at', 'revoked_at');
  return r
    ? {
        id: r.id,
        userId: r.user_id,
        familyId: r.family_id,
        expiresAt: r.expires_at,
        lastUsedAt: r.last_used_at,
        rotatedAt: r.rotated_at,
        revokedAt: r.revoked_at,
      }
    : undefined;
}

/** Marks a row as rotated (used once) and links it to its successor. */
export async function markRotated(db: Db, id: string, replacedBy: string): Promise<void> {
  await db('auth_sessions').where({ id }).update({ rotated_at: db.fn.now(), last_used_at: db.fn.now(), replaced_by: replacedBy });
}

/** Revokes every live row of a family; returns how many rows were revoked. */
export async function revokeFamily(db: Db, familyId: string, reason: string): Promise<number> {
  return db('auth_sessions')
    .where({ family_id: familyId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now(), revoked_reason: reason });
}

/** Revokes every live session of a user, except the family `exceptFamilyId`; returns the count. */
export async function revokeUserSessions(db: Db, userId: string, reason: string, exceptFamilyId?: string): Promise<number> {
  const q = db('auth_sessions').where({ user_id: userId }).whereNull('revoked_at');
  if (exceptFamilyId) q.whereNot({ family_id: exceptFamilyId });
  return q.update({ revoked_at: db.fn.now(), revoked_reason: reason });
}

/** Stores a hashed password-reset token. */
export async function insertResetToken(
  db: Db,
  t: { userId: string; tokenHash: string; expiresAt: Date; ip?: string | null },
): Promise<string> {
  const [row] = await db('password_reset_tokens')
    .insert({ user_id: t.userId, token_hash: t.tokenHash, expires_at: t.expiresAt, requested_ip: t.ip ?? null })
    .returning('id');
  return row.id;
}

/** The reset token of a hash, locked for update; undefined when absent. */
export async function findResetTokenForUpdate(db: Db, tokenHash: string): Promise<ResetTokenRow | undefined> {
  const r = await db('password_reset_tokens').where({ token_hash: tokenHash }).forUpdate().first('id', 'user_id', 'expires_at', 'used_at');
  return r ? { id: r.id, userId: r.user_id, expiresAt: r.expires_at, usedAt: r.used_at } : undefined;
}

/** Marks a reset token used, and ends every other outstanding link of the same user. */
export async function consumeResetToken(db: Db, token: ResetTokenRow): Promise<void> {
  await db('password_reset_tokens').where({ id: token.id }).update({ used_at: db.fn.now() });
  await db('password_reset_tokens')
    .where({ user_id: token.userId })
    .whereNull('used_at')
    .whereNot({ id: token.id })
    .where('expires_at', '>', db.fn.now())
    .update({ expires_at: db.fn.now() });
}

/** Appends one audit row (occurred_at = now). */
export async function insertAudit(db: Db, e: AuditEntry): Promise<void> {
  await db('audit_log').insert({
    action: e.action,
    user_id: e.userId ?? null,
    actor_email: e.actorEmail ?? null,
    entity_type: e.entityType ?? null,
    entity_id: e.entityId ?? null,
    ip: e.ip ?? null,
    details: e.details ? JSON.stringify(e.details) : null,
  });
}

/**
 * Counts audit rows of `action` for `actorEmail` in the last `windowSeconds` (and, with `after`, only
 * those after the latest `after` row of the same email), with the oldest one's time (for Retry-After).
 * Served by the (action, actor_email, occurred_at) index.
 */
export async function countRecentAudit(
  db: Db,
  action: string,
  actorEmail: string,
  windowSeconds: number,
  after?: string,
): Promise<{ count: number; oldest: Date | null }> {
  const q = db('audit_log')
    .where({ action, actor_email: actorEmail })
    .where('occurred_at', '>', db.raw(`now() - make_interval(secs => ?)`, [windowSeconds]));
  if (after) {
    q.where(
      'occurred_at',
      '>',
      db.raw(`coalesce((SELECT max(occurred_at) FROM audit_log WHERE action = ? AND actor_email = ?), '-infinity')`, [after, actorEmail]),
    );
  }
  const [r] = await q.select<{ count: number; oldest: Date | null }[]>(
    db.raw('count(*)::int AS count'),
    db.raw('min(occurred_at) AS oldest'),
  );
  return { count: r?.count ?? 0, oldest: r?.oldest ?? null };
}

/** Recent password failures of one account, overall and from one IP. */
export interface FailureCounts {
  /** Failures for the email from `ip` in the window, and the oldest one's time (for Retry-After). */
  pair: number;
  pairOldest: Date | null;
  /** Failures for the email from every IP in the window, and the latest one's time. */
  total: number;
  latest: Date | null;
}

/**
 * Counts audit rows of `actions` (failed sign-ins, refused password changes) for `actorEmail` in the last
 * `windowSeconds`: from `ip` and overall, in one query on the (action, actor_email, occurred_at) index.
 */
export async function countRecentFailures(
  db: Db,
  actions: readonly string[],
  actorEmail: string,
  ip: string | null | undefined,
  windowSeconds: number,
): Promise<FailureCounts> {
  const [r] = await db('audit_log')
    .whereIn('action', actions)
    .where({ actor_email: actorEmail })
    .where('occurred_at', '>', db.raw(`now() - make_interval(secs => ?)`, [windowSeconds]))
    .select<{ pair: number; pair_oldest: Date | null; total: number; latest: Date | null }[]>(
      db.raw('count(*) FILTER (WHERE ip IS NOT DISTINCT FROM ?::inet)::int AS pair', [ip ?? null]),
      db.raw('min(occurred_at) FILTER (WHERE ip IS NOT DISTINCT FROM ?::inet) AS pair_oldest', [ip ?? null]),
      db.raw('count(*)::int AS total'),
      db.raw('max(occurred_at) AS latest'),
    );
  return { pair: r?.pair ?? 0, pairOldest: r?.pair_oldest ?? null, total: r?.total ?? 0, latest: r?.latest ?? null };
}

/** Has `actorEmail` signed in successfully from `ip` within `days` (a known device for the lockout ceiling)? */
export async function hasSignedInFrom(
  db: Db,
  loginAction: string,
  actorEmail: string,
  ip: string | null | undefined,
  days: number,
): Promise<boolean> {
  if (!ip) return false;
  const r = await db('audit_log')
    .where({ action: loginAction, actor_email: actorEmail })
    .where('occurred_at', '>', db.raw(`now() - make_interval(days => ?)`, [days]))
    .whereRaw('ip = ?::inet', [ip])
    .first(db.raw('1 AS hit'));
  return Boolean(r);
}
