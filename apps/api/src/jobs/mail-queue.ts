import type { Config } from '../config';
import type { Logger } from '../logger';
import type { DeferredMail, Mailer, MailMessage } from '../context';
import type { Db } from '../db/knex';
import { createTransport, deliver } from './mail';
import { isDeferred, renderAttachments, renderMail } from '../lib/mail/render';
import { PgBoss, RETENTION, failWithCeiling, knexDb, ensureQueue } from './pg-boss';
import { errorCode, errorMessage } from '../lib/errors';

/** The pg-boss queue of outgoing mail. */
export const MAIL_QUEUE = 'mail';
/** Jobs one worker fetch takes and sends concurrently (over at most 5 pooled SMTP connections). */
const MAIL_BATCH = 10;

/** The mail outbox: a Mailer for the app, and the queue's lifecycle for main.ts. */
export interface MailOutbox {
  mailer: Mailer;
  /** Installs or migrates pg-boss's schema, creates the queue and (with `work`) starts the worker. */
  start(): Promise<void>;
  /** Stops the worker after in-flight deliveries (graceful) and closes the queue's pool and SMTP. */
  stop(): Promise<void>;
}

/**
 * The mail outbox (ARCHITECTURE §7) on pg-boss. `mailer.enqueue(db, msg)` inserts the job with pg-boss's
 * `db` option on the caller's knex connection or transaction, so the mail commits (or rolls back) with
 * the data and a request never waits for SMTP. The worker delivers with nodemailer; a failure (SMTP
 * down) is retried with exponential backoff (MAIL_RETRY_*), so mail is delayed, never lost. Once SMTP
 * answers again the waiting mail goes at once, not at its backed-off time (issue 23 §7): after a delivery
 * succeeds following a failure, and when the probe (every MAIL_SMTP_PROBE_SECONDS while mail waits for a
 * retry: nodemailer's `verify`) finds SMTP up, every waiting mail job is released (start_after = now).
 */
export function createMailOutbox(opts: { connectionString: string; config: Config; logger: Logger; work?: boolean; db?: Db }): MailOutbox {
  const { config, logger } = opts;
  const log = logger.child({ component: 'mail-outbox' });
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    max: 3,
    application_name: 'portal-jobs',
    schedule: false,
    ...RETENTION,
  });
  boss.on('error', (err: Error) => log.error({ err }, 'job queue error'));
  const transport = createTransport(config);
  const queueOptions = {
    retryLimit: config.mailRetryLimit,
    retryDelay: config.mailRetryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: 120,
  };
  // A completed job is archived and deleted soon after (RETENTION): even a plain message's links do not
  // stay in pgboss for the default week. Mails with one-time secrets are queued deferred and hold none.
  let workerId: string | undefined;
  let failing = false;
  let probe: NodeJS.Timeout | undefined;
  /** Mail waiting for a retry goes now: SMTP answers again. */
  const releaseRetries = async (why: string) => {
    const released = await boss
      .getDb()
      .executeSql(`UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND state = 'retry' AND start_after > now() RETURNING id`, [
        MAIL_QUEUE,
      ]);
    if (released.rows.length) {
      log.info({ released: released.rows.length, why }, 'SMTP answers again: mail waiting for a retry is sent now');
      if (workerId) boss.notifyWorker(workerId);
    }
  };
  /** While mail waits for a retry, asks SMTP whether it answers (nodemailer verify); releases the mail when it does. */
  const probeSmtp = async () => {
    const waiting = await boss
      .getDb()
      .executeSql(`SELECT 1 FROM pgboss.job WHERE name = $1 AND state = 'retry' AND start_after > now() LIMIT 1`, [MAIL_QUEUE]);
    if (!waiting.rows.length) return;
    try {
      await transport.verify();
    } catch {
      return; // still down: the retries keep their time
    }
    failing = false;
    await releaseRetries('probe');
  };
  return {
    mailer: {
      async enqueue(db, message) {
        await boss.send(MAIL_QUEUE, message, { db: knexDb(db) });
      },
    },
    async start() {
      await boss.start();
      await ensureQueue(boss, MAIL_QUEUE, queueOptions);
      if (opts.work ?? true) {
        // Up to MAIL_BATCH jobs a fetch, sent concurrently over pooled SMTP connections, fetching again at once
        // while batches come back full; each job settles on its own, so one refused message is retried alone
        // (≥ 20 messages/s, see mail-throughput.slow.test.ts).
        workerId = await boss.work<MailMessage | DeferredMail>(
          MAIL_QUEUE,
          { pollingIntervalSeconds: config.mailPollSeconds, batchSize: MAIL_BATCH, includeMetadata: true },
          async (jobs) => {
            await Promise.all(
              jobs.map(async (job) => {
                const template = isDeferred(job.data) ? job.data.render : job.data.template;
                try {
                  let message: MailMessage | null = null;
                  if (isDeferred(job.data)) {
                    if (!opts.db) throw new Error('the mail outbox has no database to render deferred mail with');
                    // Deferred mail is rendered now, in the worker: the job row never holds its secret.
                    message = await renderMail({ db: opts.db, config }, job.data);
                  } else message = job.data;
                  // Named attachments (an order's invoice) are rendered here, in the job, never in the request.
                  if (message?.attach?.length && !opts.db) throw new Error('the mail outbox has no database to render attachments with');
                  const files = message?.attach?.length && opts.db ? await renderAttachments({ db: opts.db, config }, message) : [];
                  if (message) await deliver(config, logger, transport, message, files);
                  else log.info({ template }, 'deferred mail had nothing to send');
                  if (failing && message) {
                    failing = false;
                    await releaseRetries('delivered').catch((e: Error) =>
                      log.error({ err: { message: e.message } }, 'could not release waiting mail'),
                    );
                  }
                } catch (err) {
                  failing = true;
                  log.warn(
                    {
                      err: { message: errorMessage(err), code: errorCode(err) },
                      template,
                      attempt: job.retryCount + 1,
                    },
                    'mail delivery failed; it will be retried',
                  );
                  // This job alone is retried (the rest of the batch completes), at most MAIL_RETRY_DELAY_MAX_SECONDS later.
                  // Should even that write fail, the job stays active and pg-boss retries it when it expires.
                  await failWithCeiling(boss, MAIL_QUEUE, job.id, { message: errorMessage(err) }, config.mailRetryDelayMaxSeconds).catch(
                    (e: Error) => log.error({ err: { message: e.message } }, 'could not record the failed mail job'),
                  );
                }
              }),
            );
            if (jobs.length === MAIL_BATCH && workerId) boss.notifyWorker(workerId);
          },
        );
        if (config.smtpUrl) {
          probe = setInterval(
            () => void probeSmtp().catch((e: Error) => log.warn({ err: { message: e.message } }, 'SMTP probe failed')),
            config.mailSmtpProbeSeconds * 1000,
          );
          probe.unref();
        }
      }
    },
    async stop() {
      clearInterval(probe);
      await boss.stop({ graceful: true, timeout: 10_000 });
      transport.close();
    },
  };
}
