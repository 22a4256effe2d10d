import type { Db } from '../../db/knex';
import * as repo from './audit.repository';

/** Who did it: a signed-in user, an API key, or the system (CLI, reconciler, jobs). */
export interface AuditActor {
  userId?: string | null;
  email?: string | null;
  /** For API-key principals: the key's id (kept in details.apiKeyId). */
  apiKeyId?: string | null;
}

/** One audit entry: the action (`invitation.created`, `user.roles.added`…), its entity and details. */
export interface AuditRecord {
  action: string;
  entityType?: string;
  entityId?: string | number;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Appends one row to `audit_log` (ARCHITECTURE §3, §9). Call it with the transaction of the change it
 * records, so a refused or rolled-back change leaves no row. Never put secrets in `details`.
 */
export async function recordAudit(db: Db, actor: AuditActor, rec: AuditRecord): Promise<void> {
  const details = actor.apiKeyId ? { ...rec.details, apiKeyId: actor.apiKeyId } : rec.details;
  await repo.insertEntry(db, {
    action: rec.action,
    userId: actor.userId ?? null,
    actorEmail: actor.email ?? null,
    entityType: rec.entityType ?? null,
    entityId: rec.entityId === undefined ? null : String(rec.entityId),
    ip: rec.ip ?? null,
    details: details ? JSON.stringify(details) : null,
  });
}
