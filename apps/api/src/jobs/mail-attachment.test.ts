import { SMTPServer } from 'smtp-server';
import type { Mailer } from '../context';
import { createTestContext } from '../test/harness';
import { waitFor } from '../test/wait';
import { FIXTURE_STORES, seedFixtures } from '../test/fixtures';
import { placeInStoreOrder } from '../modules/orders/test-support';
import { createMailOutbox, type MailOutbox } from './mail-queue';

/**
 * The order confirmation carries its invoice (issue 28 §3): the queued job only names it ({ kind: 'invoice',
 * orderId }); the real pg-boss worker renders the PDF when it sends, and the message reaches SMTP with it attached.
 */
it('when an order is confirmed, then the mail worker sends the confirmation with the invoice PDF attached, and the job row holds no PDF', async () => {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => (raw += c));
      stream.on('end', () => {
        received.push(raw);
        done();
      });
    },
  });
  const port = await new Promise<number>((ok) =>
    server.listen(0, '127.0.0.1', () => ok((server.server.address() as { port: number }).port)),
  );
  const late: { outbox?: MailOutbox } = {};
  const mailer: Mailer = { enqueue: (db, m) => late.outbox!.mailer.enqueue(db, m) };
  const t = await createTestContext({ mailer, env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_POLL_SECONDS: '0.5' } });
  const outbox = createMailOutbox({
    connectionString: t.config.databaseUrl!,
    config: t.config,
    logger: t.ctx.logger,
    work: true,
    db: t.db,
  });
  late.outbox = outbox;
  try {
    await outbox.start();
    const fx = await seedFixtures(t.db);
    const o = await placeInStoreOrder(t, fx, FIXTURE_STORES.central);
    const raw = await waitFor('the confirmation with its invoice', () =>
      received.find((r) => r.includes(`Order ${o.body.orderNumber} confirmation`)),
    );
    expect(raw).toMatch(/Content-Type: application\/pdf;?\s*(name="?invoice-)?/i);
    expect(raw).toContain(`invoice-${o.body.orderNumber}.pdf`);
    const job = await t.db
      .raw(
        `SELECT data::text AS d FROM pgboss.job WHERE data->>'template' = 'order_confirmation' UNION ALL SELECT data::text FROM pgboss.archive WHERE data->>'template' = 'order_confirmation'`,
      )
      .catch(() => ({ rows: [] as { d: string }[] }));
    for (const row of job.rows as { d: string }[]) expect(row.d.length).toBeLessThan(20_000);
  } finally {
    await outbox.stop();
    await t.close();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}, 60_000);
