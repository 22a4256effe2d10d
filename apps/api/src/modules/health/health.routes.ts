import { healthSchema, readinessSchema } from '@portal/contracts';
import { migrationState } from '../../db/knex';
import { unknownMigrationsGauge } from '../../http/metrics';
import { reply, route } from '../../http/route';
import { checkDatabase } from './health.service';

const tags = ['ops'];

/**
 * GET /health (liveness) and GET /health/ready (DB reachable, migrations current), ARCHITECTURE §8. A
 * database a newer release has migrated is ready for this one too (`migrations: 'ahead'`, the
 * portal_db_unknown_migrations gauge > 0): expand/contract migrations keep the previous release working.
 */
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
    summary: 'Readiness: database reachable, no migration of this release pending',
    description:
      "`migrations`: `current`; `ahead` (still ready) when the database has migrations a newer release applied; `pending` (not ready) when this release's are not applied.",
    response: { description: 'Ready', schema: readinessSchema },
    errors: { 503: { description: 'Not ready', schema: readinessSchema } },
    handler: async (_actor, _input, { ctx }) => {
      let state;
      try {
        await checkDatabase(ctx.db);
        state = await migrationState(ctx.db);
      } catch {
        return reply(503, { status: 'not_ready', database: 'down', migrations: 'unknown' });
      }
      unknownMigrationsGauge.set(state.unknown.length);
      if (state.pending.length) return reply(503, { status: 'not_ready', database: 'up', migrations: 'pending' });
      return { status: 'ready', database: 'up', migrations: state.unknown.length ? 'ahead' : 'current' };
    },
  }),
];
