import { healthSchema, readinessSchema } from '@portal/contracts';
import { migrationStatus } from '../../db/knex';
import { reply, route } from '../../http/route';

const tags = ['ops'];

/** GET /health (liveness) and GET /health/ready (DB reachable, migrations current), ARCHITECTURE §8. */
export const healthRoutes = [
  route({
    method: 'get',
    path: '/health',
    scope: 'public',
    tags,
    auth: 'public',
    summary: 'Liveness',
    response: { description: 'Alive', schema: healthSchema },
    handler: () => ({ status: 'ok' }),
  }),
  route({
    method: 'get',
    path: '/health/ready',
    scope: 'public',
    tags,
    auth: 'public',
    summary: 'Readiness: database reachable, migrations current',
    response: { description: 'Ready', schema: readinessSchema },
    errors: { 503: { description: 'Not ready', schema: readinessSchema } },
    handler: async (_actor, _input, { ctx }) => {
      try {
        await ctx.db.raw('SELECT 1');
        const migrations = await migrationStatus(ctx.db);
        return migrations === 'current'
          ? { status: 'ready', database: 'up', migrations }
          : reply(503, { status: 'not_ready', database: 'up', migrations });
      } catch {
        return reply(503, { status: 'not_ready', database: 'down', migrations: 'unknown' });
      }
    },
  }),
];
