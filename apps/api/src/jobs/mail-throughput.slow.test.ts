import { SMTPServer } from 'smtp-server';
import { createTestContext, type TestContext } from '../test/harness';
import { createMailOutbox } from './mail-queue';

/**
 * Mail delivery keeps up. 300 messages queued at once go through the real outbox (pg-boss
 * worker, nodemailer over SMTP) to a local SMTP sink (npm smtp-server); the measured rate must be at
 * least 20 messages per second and is printed (the figure for the closing note).
 */
const MESSAGES = 300;
const MIN_RATE = 20;

let t: TestContext;
let received = 0;
let lastAt = 0;
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, done) {
    stream.resume();
    stream.on('end', () => {
      received++;
      lastAt = Date.now();
      done();
    });
  },
});
let port = 0;
beforeAll(async () => {
  port = await new Promise<number>((ok) => sink.listen(0, '127.0.0.1', () => ok((sink.server.address() as { port: number }).port)));
  t = await createTestContext({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_POLL_SECONDS: '0.5' } });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((ok) => sink.close(() => ok()));
});

describe('mail delivery throughput', () => {
  it(`when ${MESSAGES} messages are queued at once, then the worker delivers at least ${MIN_RATE} per second to a local SMTP sink`, async () => {
    const producer = createMailOutbox({
      connectionString: t.config.databaseUrl!,
      config: t.config,
      logger: t.ctx.logger,
      work: false,
      db: t.db,
    });
    await producer.start();
    await t.db.transaction(async (trx) => {
      for (let i = 0; i < MESSAGES; i++) {
        await producer.mailer.enqueue(trx, {
          to: `buyer${i}@example.com`,
          subject: `Order ORD-${i}`,
          text: `Thank you for your order ${i}.`,
          template: 'order_confirmation',
        });
      }
    });
    await producer.stop();

    const worker = createMailOutbox({
      connectionString: t.config.databaseUrl!,
      config: t.config,
      logger: t.ctx.logger,
      work: true,
      db: t.db,
    });
    const started = Date.now();
    await worker.start();
    try {
      const deadline = started + 60_000;
      while (received < MESSAGES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(received).toBe(MESSAGES);
      const rate = MESSAGES / ((lastAt - started) / 1000);
      console.log(
        `mail throughput: ${MESSAGES} messages in ${((lastAt - started) / 1000).toFixed(2)} s = ${rate.toFixed(1)} messages/s to a local SMTP sink`,
      );
      expect(rate).toBeGreaterThanOrEqual(MIN_RATE);
    } finally {
      await worker.stop();
    }
  }, 120_000);
});
