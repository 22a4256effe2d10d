import { createServer } from 'node:net';
import request from 'supertest';
import { SMTPServer } from 'smtp-server';
import type { Mailer } from '../context';
import { createTestContext, type TestContext } from '../test/harness';
import { waitFor } from '../test/wait';
import { seedFixtures } from '../test/fixtures';
import { createMailOutbox, MAIL_QUEUE, type MailOutbox } from './mail-queue';

/** A local SMTP server (npm smtp-server) that keeps every message it receives, raw. */
function smtpServer() {
  const received: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => {
        raw += c;
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  return {
    received,
    listen: (port = 0) =>
      new Promise<number>((ok) => server.listen(port, '127.0.0.1', () => ok((server.server.address() as { port: number }).port))),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** A port nothing listens on (for "the mail server is down"). */
const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/** Undoes quoted-printable soft breaks and escapes, then finds the recovery token of the link. */
const tokenIn = (raw: string) => /#token=([A-Za-z0-9_-]{43})/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];

/** A test app whose mailer is the real pg-boss outbox (worker on) delivering to `smtpUrl`. */
async function contextWithOutbox(smtpUrl: string, env: Record<string, string> = {}): Promise<{ t: TestContext; outbox: MailOutbox }> {
  const late: { outbox?: MailOutbox } = {}; // the outbox needs the test database, which the context creates
  const mailer: Mailer = { enqueue: (db, m) => late.outbox!.mailer.enqueue(db, m) };
  const t = await createTestContext({
    mailer,
    env: { SMTP_URL: smtpUrl, MAIL_POLL_SECONDS: '0.5', MAIL_RETRY_DELAY_SECONDS: '1', MAIL_RETRY_DELAY_MAX_SECONDS: '2', ...env },
  });
  const outbox = createMailOutbox({
    connectionString: t.config.databaseUrl!,
    config: t.config,
    logger: t.ctx.logger,
    work: true,
    db: t.db,
  });
  late.outbox = outbox;
  await outbox.start();
  await seedFixtures(t.db);
  return { t, outbox };
}

describe('mail outbox (pg-boss + nodemailer over SMTP)', () => {
  it('when a reset is requested, then the mail goes through the queue to the SMTP server and its link resets the password', async () => {
    const smtp = smtpServer();
    const port = await smtp.listen();
    const { t, outbox } = await contextWithOutbox(`smtp://127.0.0.1:${port}`);
    try {
      const rec = await request(t.app).post('/api/v1/auth/password-recovery').send({ email: 'buyer@example.com' });
      expect(rec.status).toBe(202);
      const mail = await waitFor('the reset mail', () => smtp.received.find((m) => m.to.includes('buyer@example.com') && tokenIn(m.raw)));
      expect(mail.raw).toMatch(/Subject: Reset your password/);
      // The job carried no secret: it was rendered at send time, and pgboss.job never held the token.
      const queued = await t.db.raw(`SELECT data::text AS data FROM pgboss.job WHERE name = ?`, [MAIL_QUEUE]);
      expect(queued.rows.length).toBeGreaterThan(0);
      for (const j of queued.rows as { data: string }[]) expect(j.data).not.toContain(tokenIn(mail.raw)!);
      expect(queued.rows.map((j: { data: string }) => JSON.parse(j.data))).toContainEqual({
        render: 'password_reset',
        to: 'buyer@example.com',
        data: expect.objectContaining({ email: 'buyer@example.com' }),
      });
      const reset = await request(t.app)
        .post('/api/v1/auth/password-reset')
        .send({ token: tokenIn(mail.raw), password: 'Mailed#Link42', confirmPassword: 'Mailed#Link42' });
      expect(reset.status).toBe(204);
      const login = await request(t.app).post('/api/v1/auth/login').send({ email: 'buyer@example.com', password: 'Mailed#Link42' });
      expect(login.status).toBe(200);
      await waitFor('the password-changed notice', () => smtp.received.find((m) => /Subject: Your password was changed/.test(m.raw)));

      // The job is written on the caller's transaction: when it rolls back, no mail is queued.
      await t.db
        .transaction(async (trx) => {
          await outbox.mailer.enqueue(trx, { to: 'nobody@example.com', subject: 'rolled back', text: 'never', template: 'test' });
          throw new Error('roll back');
        })
        .catch(() => undefined);
      const jobs = await t.db.raw(`SELECT data->>'subject' AS subject, state FROM pgboss.job WHERE name = ?`, [MAIL_QUEUE]);
      expect(jobs.rows.map((j: { subject: string }) => j.subject)).not.toContain('rolled back');
    } finally {
      await outbox.stop();
      await t.close();
      await smtp.close();
    }
  }, 60_000);

  it('when the SMTP server is down, then the request still succeeds and the mail arrives, retried with backoff, once it is up', async () => {
    const port = await freePort();
    const { t, outbox } = await contextWithOutbox(`smtp://127.0.0.1:${port}`);
    const smtp = smtpServer();
    try {
      const started = Date.now();
      const rec = await request(t.app).post('/api/v1/auth/password-recovery').send({ email: 'viewer@example.com' });
      expect(rec.status).toBe(202);
      expect(Date.now() - started).toBeLessThan(2_000);
      const retried = await waitFor('a failed delivery attempt', async () => {
        const r = await t.db.raw(`SELECT state, retry_count FROM pgboss.job WHERE name = ? AND data->>'to' = 'viewer@example.com'`, [
          MAIL_QUEUE,
        ]);
        return r.rows.find((j: { retry_count: number }) => j.retry_count >= 1);
      });
      expect(retried.retry_count).toBeGreaterThanOrEqual(1);
      expect(smtp.received).toHaveLength(0);
      await smtp.listen(port);
      const mail = await waitFor(
        'the delayed reset mail',
        () => smtp.received.find((m) => m.to.includes('viewer@example.com') && tokenIn(m.raw)),
        30_000,
      );
      expect(tokenIn(mail.raw)).toHaveLength(43);
      const done = await waitFor('the job to complete', async () => {
        const r = await t.db.raw(`SELECT state FROM pgboss.job WHERE name = ? AND data->>'to' = 'viewer@example.com'`, [MAIL_QUEUE]);
        return r.rows.find((j: { state: string }) => j.state === 'completed');
      });
      expect(done.state).toBe('completed');
    } finally {
      await outbox.stop();
      await t.close();
      await smtp.close();
    }
  }, 60_000);

  it('when SMTP answers again while a mail waits a long backoff, then the probe sees it and the mail goes at once, not at its retry time', async () => {
    const port = await freePort();
    const { t, outbox } = await contextWithOutbox(`smtp://127.0.0.1:${port}`, {
      MAIL_RETRY_DELAY_SECONDS: '600',
      MAIL_RETRY_DELAY_MAX_SECONDS: '900',
      MAIL_SMTP_PROBE_SECONDS: '1',
    });
    const smtp = smtpServer();
    try {
      expect((await request(t.app).post('/api/v1/auth/password-recovery').send({ email: 'viewer@example.com' })).status).toBe(202);
      const waiting = await waitFor('the mail to wait for its retry', async () => {
        const r = await t.db.raw(
          `SELECT state, start_after > now() + interval '5 minutes' AS later FROM pgboss.job WHERE name = ? AND data->>'to' = 'viewer@example.com'`,
          [MAIL_QUEUE],
        );
        return r.rows.find((j: { state: string; later: boolean }) => j.state === 'retry' && j.later);
      });
      expect(waiting).toMatchObject({ state: 'retry', later: true });
      await smtp.listen(port);
      const mail = await waitFor('the released reset mail', () => smtp.received.find((m) => m.to.includes('viewer@example.com')), 30_000);
      expect(tokenIn(mail.raw)).toHaveLength(43);
    } finally {
      await outbox.stop();
      await t.close();
      await smtp.close();
    }
  }, 60_000);
});
