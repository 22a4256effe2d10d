import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { REDACT_PATHS } from '../logger';
import { redactParams, redactUrl } from '../app';
import { requestLog } from './request-log';

/**
 * The request log (request-log.ts, in place of pino-http): one completion line per request with the request
 * (redacted), the response's status and the time taken, at the level the status calls for; a handler's own
 * line carries the request too; health checks are not logged; an error or a 5xx is logged as errored.
 */
function appLogging(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
  const app = express();
  app.use(
    requestLog(logger, {
      genReqId: (req, res) => {
        const id = String(req.headers['x-request-id'] ?? 'generated');
        res.setHeader('X-Request-Id', id);
        return id;
      },
      ignore: (req) => req.url === '/health',
      reqSerializer: (req) => ({ ...req, url: redactUrl(req.url), query: redactParams(req.query), params: redactParams(req.params) }),
      level: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    }),
  );
  app.get('/ok', (req, res) => {
    req.log.info({ step: 1 }, 'handler line');
    res.json({ ok: true });
  });
  app.get('/health', (_req, res) => res.json({ ok: true }));
  app.get('/missing', (_req, res) => res.status(404).json({}));
  app.get('/boom', (_req, res) => res.status(500).json({}));
  return { app, lines };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('request log', () => {
  it('when a request succeeds, then its completion line holds the request (redacted), status and time, and the handler line the request', async () => {
    const { app, lines } = appLogging();
    await request(app).get('/ok?token=secret&x=1').set('Authorization', 'Bearer abc').set('X-Request-Id', 'rid-1').expect(200);
    await settle();
    const handler = lines.find((l) => l.msg === 'handler line')!;
    const done = lines.find((l) => l.msg === 'request completed')!;
    for (const line of [handler, done]) {
      const req = line.req as { id: string; method: string; url: string; headers: Record<string, string> };
      expect(req).toMatchObject({ id: 'rid-1', method: 'GET', url: '/ok?token=[redacted]&x=1' });
      expect(req.headers.authorization).toBe('[redacted]');
    }
    expect(done).toMatchObject({ level: 30, res: { statusCode: 200 } });
    expect(typeof done.responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('when a request is refused or fails, then it is logged at warn or as errored; a health check is not logged', async () => {
    const { app, lines } = appLogging();
    await request(app).get('/missing').expect(404);
    await request(app).get('/boom').expect(500);
    await request(app).get('/health').expect(200);
    await settle();
    expect(lines.map((l) => [l.level, l.msg, (l.res as { statusCode: number }).statusCode])).toEqual([
      [40, 'request completed', 404],
      [50, 'request errored', 500],
    ]);
    expect((lines[1].err as { message: string }).message).toBe('failed with status code 500');
  });

  it('when the level is above info, then a success writes nothing and a refusal still does', async () => {
    const { app, lines } = appLogging('warn');
    await request(app).get('/ok').expect(200);
    await request(app).get('/missing').expect(404);
    await settle();
    expect(lines.map((l) => l.msg)).toEqual(['request completed']);
    expect(lines[0].level).toBe(40);
  });
});
