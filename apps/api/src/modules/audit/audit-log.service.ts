import { PERMISSIONS, type AuditEntry } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { Actor } from '../access/access.service';
import { reach, usersInReach } from '../access/access.service';

/** Who reads the audit log (the route's codes), and where: super administrators all, board administrators their board's. */
export const AUDIT_CODES = [PERMISSIONS.usersSuperAdmin, PERMISSIONS.usersManageBoard] as const;

/**
 * The audit log's read side (GET /admin/audit-log; ARCHITECTURE §5, §9): who did what to whom,
 * when and from which IP, newest first, 50 a page with a cursor (the last id seen).
 *
 * Super administrators (a global grant) read every row. Board administrators (bcc.users.manage_board at a board)
 * read the rows of their board: those about a user or an outlet they reach (access.usersInReach, access.reach),
 * and the entity-less rows (sign-ins) of those users. Filters: `actor` (email substring or user id), `action` (prefix, e.g. `user.`),
 * `entity` (`user`, or `user:<id>`).
 */
export async function listAuditLog(
  db: Db,
  actor: Actor,
  q: { actor?: string; action?: string; entity?: string; cursor?: number; limit: number },
): Promise<{ items: AuditEntry[]; nextCursor: number | null }> {
  const query = db('audit_log as a')
    .select(
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
    .limit(q.limit + 1);
  const users = () => usersInReach(db, actor, AUDIT_CODES);
  const outlets = reach(db, actor, AUDIT_CODES, 'outlet');
  if (outlets) {
    // Rows about a user or an outlet of the board, and the board's users' own rows about nothing else (sign-ins).
    const userIds = () => db.from(users()!.as('u'));
    query.where((w) =>
      w
        .where((x) => x.where('a.entity_type', 'user').whereIn('a.entity_id', userIds().select(db.raw('u.user_id::text'))))
        .orWhere((x) => x.where('a.entity_type', 'outlet').whereIn('a.entity_id', db.from(outlets.as('m')).select(db.raw('m.id::text'))))
        .orWhere((x) => x.whereNull('a.entity_type').whereIn('a.user_id', userIds().select('u.user_id'))),
    );
  }
  if (q.cursor) query.andWhere('a.id', '<', q.cursor);
  if (q.actor) {
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(q.actor)) query.andWhere('a.user_id', q.actor);
    else query.andWhereRaw('a.actor_email::text ILIKE ?', [`%${q.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
  }
  if (q.action) query.andWhereRaw('a.action LIKE ?', [`${q.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
  if (q.entity) {
    const [type, ...rest] = q.entity.split(':');
    query.andWhere('a.entity_type', type);
    if (rest.length) query.andWhere('a.entity_id', rest.join(':'));
  }
  const rows = await query;
  const page = rows.slice(0, q.limit);
  return {
    items: page.map((r) => ({
      id: Number(r.id),
      occurredAt: new Date(r.occurred_at).toISOString(),
      actorUserId: r.user_id,
      actorEmail: r.actor_email,
      action: r.action,
      entityType: r.entity_type,
      entityId: r.entity_id,
      ip: r.ip,
      details: r.details,
    })),
    nextCursor: rows.length > q.limit ? Number(page[page.length - 1].id) : null,
  };
}
