import { PERMISSIONS, type AuditEntry } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { Actor } from '../access/access.service';
import { reach, usersInReach } from '../access/access.service';
import * as repo from './audit.repository';

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
  // Super administrators read every row; a board administrator the rows of the users and outlets they reach.
  const users = usersInReach(db, actor, AUDIT_CODES);
  const outlets = reach(db, actor, AUDIT_CODES, 'outlet');
  const rows = await repo.findPage(db, { ...q, limit: q.limit + 1, reach: users && outlets ? { users, outlets } : null });
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
