import { Router } from 'express';
import { healthSchema, readinessSchema } from '@portal/contracts';
import type { AppContext } from '../../context';
import { migrationStatus } from '../../db/knex';
import { documentRoute, jsonResponse } from '../../http/openapi';

documentRoute({ method: 'get', path: '/health', summary: 'Liveness', tags: ['ops'], secured: false, responses: { 200: jsonResponse('Alive', healthSchema) } });
documentRoute({ method: 'get', path: '/health/ready', summary: 'Readiness: database reachable, migrations current', tags: ['ops'], secured: false, responses: { 200: jsonResponse('Ready', readinessSchema), 503: jsonResponse('Not ready', readinessSchema) } });

/** GET /health (liveness) and GET /health/ready (DB reachable, migrations current), ARCHITECTURE §8. */
export function healthRoutes(ctx: AppContext) {
  const r = Router();
  r.get('/health', (_req, res) => { res.json({ status: 'ok' }); });
  r.get('/health/ready', async (_req, res) => {
    try {
      await ctx.db.raw('SELECT 1');
      const migrations = await migrationStatus(ctx.db);
      res.status(migrations === 'current' ? 200 : 503).json({ status: migrations === 'current' ? 'ready' : 'not_ready', database: 'up', migrations });
    } catch {
      res.status(503).json({ status: 'not_ready', database: 'down', migrations: 'unknown' });
    }
  });
  return r;
}
