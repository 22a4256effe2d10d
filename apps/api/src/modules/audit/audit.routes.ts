import { PERMISSIONS as P, auditLogQuerySchema, auditLogSchema } from '@portal/contracts';
import { route } from '../../http/route';
import { listAuditLog } from './audit-log.service';

/** /api/v1/admin/audit-log (ARCHITECTURE §5). */
export const auditRoutes = [
  route({
    method: 'get',
    path: '/admin/audit-log',
    scope: 'reach',
    tags: ['audit'],
    permissions: [P.usersSuperAdmin, P.usersManageBoard],
    query: auditLogQuerySchema,
    summary:
      "Who did what to whom, when, from which IP; newest first, 50 a page (cursor = last id); board administrators see their board's rows. Filters: actor (email or user id), action (prefix), entity (type or type:id)",
    response: { description: 'Audit entries', schema: auditLogSchema },
    handler: (actor, { query }, { ctx }) => listAuditLog(ctx.db, actor, query),
  }),
];
