import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { AuditLogRow } from '../../db/tables/admin';

/** Queries of the audit log (ARCHITECTURE §3, §9); the only place with its SQL. */

type Q = Db | Knex.Transaction;

/** A new audit_log row; `details` already JSON-encoded (never secrets). */
export interface AuditInsert {
  action: string;
  userId: string | null;
  actorEmail: string | null;
  entityType: string | null;
  entityId: string | null;
  ip: string | null;
  details: string | null;
}

/** Appends one row to `audit_log`. */
export async function insertEntry(db: Q, e: AuditInsert): Promise<void> {
  await db('audit_log').insert({
    action: e.action,
    user_id: e.userId,
    actor_email: e.actorEmail,
    entity_type: e.entityType,
    entity_id: e.entityId,
    ip: e.ip,
    details: e.details,
  });
}

/** One row of the audit log's read side (the table's row: `ip` read as text through host()). */
export type AuditLogEntryRow = AuditLogRow;

/** Filters of `findPage`; `reach`: the users (`user_id`) and outlets (`id`) reached, as subqueries; null: every row. */
export interface AuditPageQuery {
  reach: { users: Knex.QueryBuilder; outlets: Knex.QueryBuilder } | null;
  actor?: string;
  action?: string;
  entity?: string;
  cursor?: number;
  /** Rows to read (the caller asks one more than a page to know whether another follows). */
  limit: number;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Audit rows newest first. With `reach` (a board administrator): rows about a user or an outlet reached, and
 * the reached users' own rows about nothing else (sign-ins). `actor`: email substring or user id; `action`: a
 * prefix; `entity`: `type` or `type:id`; `cursor`: ids below it.
 */
export async function findPage(db: Q, q: AuditPageQuery): Promise<AuditLogEntryRow[]> {
  const query = db('audit_log as a')
    .select<AuditLogEntryRow[]>(
      'a.id',
      'a.occurred_at',
      'a.user_id',
      'a.actor_email',
      'a.action',
      'a.entity_type',
      'a.entity_id',
      db.raw('host(a.ip) AS ip'),
      'a.details',
    )
    .orderBy('a.id', 'desc')
    .limit(q.limit);
  if (q.reach) {
    const { users, outlets } = q.reach;
    const userIds = () => db.from(users.as('u'));
    query.where((w) =>
      w
        .where((x) => x.where('a.entity_type', 'user').whereIn('a.entity_id', userIds().select(db.raw('u.user_id::text'))))
        .orWhere((x) => x.where('a.entity_type', 'outlet').whereIn('a.entity_id', db.from(outlets.as('m')).select(db.raw('m.id::text'))))
        .orWhere((x) => x.whereNull('a.entity_type').whereIn('a.user_id', userIds().select('u.user_id'))),
    );
  }
  if (q.cursor) query.andWhere('a.id', '<', q.cursor);
  if (q.actor) {
    if (UUID.test(q.actor)) query.andWhere('a.user_id', q.actor);
    else query.andWhereRaw('a.actor_email::text ILIKE ?', [`%${likeEscape(q.actor)}%`]);
  }
  if (q.action) query.andWhereRaw('a.action LIKE ?', [`${likeEscape(q.action)}%`]);
  if (q.entity) {
    const [type, ...rest] = q.entity.split(':');
    query.andWhere('a.entity_type', type);
    if (rest.length) query.andWhere('a.entity_id', rest.join(':'));
  }
  return query;
}
