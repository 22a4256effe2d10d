import { mkdtempSync } from 'node:fs';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import express from 'express';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../app';
import { loadConfig, type Config } from '../config';
import { createDb, type Db } from '../db/knex';
import { createLogger } from '../logger';
import type { AppContext, Mailer, MailMessage } from '../context';
import { withDatabase } from './global-setup';
import { signAccessToken } from '../http/auth';
import { renderMail } from '../lib/mail/render';

export interface TestContext {
  db: Db;
  app: Express;
  ctx: AppContext;
  config: Config;
  /** Messages handed to the mailer, newest last (the outbox as the test sees it). */
  mail: MailMessage[];
  close(): Promise<void>;
}

let counter = 0;

/**
 * A fresh database cloned from the migrated template, and the app built on it (no listen).
 * `env` overrides config (e.g. { BCRYPT_COST: '4' }); `mailer` replaces the capturing mailer.
 */
export async function createTestContext(opts: { env?: Record<string, string>; mailer?: Mailer } = {}): Promise<TestContext> {
  const server = process.env.PORTAL_TEST_SERVER!;
  // The counter starts over in each test file (a fresh module registry), and files may share a process
  // (one worker, or in band): the random part keeps a file from meeting a database an earlier file left.
  const name = `portal_t_${process.env.PORTAL_TEST_RUN}_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
  const admin = createDb(withDatabase(server, 'postgres'), { max: 1 });
  await admin.raw(`CREATE DATABASE ${name} TEMPLATE ${process.env.PORTAL_TEST_TEMPLATE}`);
  await admin.destroy();
  const db = createDb(withDatabase(server, name), { max: 10 });
  const config = loadConfig({
    // Payment test mode is off unless asked; the API and e2e tests pay with the test gateway.
    NODE_ENV: 'test',
    BCRYPT_COST: '4',
    JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long',
    PAYMENT_TEST_MODE: 'true',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-test-')),
    DATABASE_URL: withDatabase(server, name),
    // A live stream (GET /me/events) ends within 0.3 s, so a test calling every route is not held open.
    LIVE_STREAM_MAX_SECONDS: '0.3',
    ...opts.env,
  });
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const mail: MailMessage[] = [];
  // The capturing mailer renders deferred mail at once (in the caller's transaction), as the worker would.
  const mailer: Mailer = opts.mailer ?? {
    enqueue: async (db, m) => {
      const msg = await renderMail({ db, config }, m);
      if (msg) mail.push(msg);
    },
  };
  const ctx: AppContext = { config, db, logger, mailer };
  // Access tokens are checked against live sessions: tokenFor() inserts its session row
  // without waiting, and every request first waits for those inserts, so tests keep a synchronous tokenFor.
  const pending: Promise<unknown>[] = [];
  const app = express();
  app.use((_req, _res, next) => {
    void Promise.all(pending.splice(0)).then(() => next(), next);
  });
  app.use(createApp(ctx));
  const t = {
    db,
    app,
    ctx,
    config,
    mail,
    async close() {
      await db.destroy();
      const a = createDb(withDatabase(server, 'postgres'), { max: 1 });
      await a.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.destroy();
    },
  };
  pendingSessions.set(t, pending);
  return t;
}
const pendingSessions = new WeakMap<TestContext, Promise<unknown>[]>();

/** Signs in over HTTP and returns the bearer token (throws with the status when refused). */
export async function loginAs(app: Express, email: string, password = FIXTURE_PASSWORD): Promise<string> {
  const res = await request(app).post('/api/v1/auth/login').send({ email, password });
  if (res.status !== 200) throw new Error(`login ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}

export const FIXTURE_PASSWORD = 'Fixture#Pass1';

/**
 * A valid access token for `userId` signed with the test config (no login round trip), with a live
 * session of its own (an auth_sessions row, inserted before the next request of `t.app` runs).
 */
export function tokenFor(t: TestContext, user: { id: string; email: string }): string {
  const sid = randomUUID();
  const insert = t
    .db('auth_sessions')
    .insert({
      user_id: user.id,
      family_id: sid,
      token_hash: createHash('sha256').update(randomBytes(32)).digest('hex'),
      expires_at: new Date(Date.now() + t.config.refreshAbsoluteLifetimeSeconds * 1000),
    })
    .catch(() => undefined); // an unknown user id: the token is refused like any token of a deleted user
  pendingSessions.get(t)?.push(insert);
  return signAccessToken(t.config.jwtSecret, t.config.accessTokenTtlSeconds, { sub: user.id, email: user.email, sid }).token;
}
