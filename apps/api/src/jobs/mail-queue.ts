import { PgBoss, fromKnex } from 'pg-boss';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Mailer, MailMessage } from '../context';
import { createTransport, deliver } from './mail';

/** The pg-boss queue of outgoing mail. */
export const MAIL_QUEUE = 'mail';

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
 * down) is retried with exponential backoff (MAIL_RETRY_*), so mail is delayed, never lost.
 */
export function createMailOutbox(opts: { connectionString: string; config: Config; logger: Logger; work?: boolean }): MailOutbox {
  const { config, logger } = opts;
  const log = logger.child({ component: 'mail-outbox' });
  const boss = new PgBoss({ connectionString: opts.connectionString, max: 3, application_name: 'portal-jobs', schedule: false });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  const transport = createTransport(config);
  const queueOptions = {
    retryLimit: config.mailRetryLimit,
    retryDelay: config.mailRetryDelaySeconds,
    retryBackoff: true,
    retryDelayMax: config.mailRetryDelayMaxSeconds,
    expireInSeconds: 120,
  };
  return {
    mailer: {
      async enqueue(db, message) {
        await boss.send(MAIL_QUEUE, message, { db: fromKnex(db) });
      },
    },
    async start() {
      await boss.start();
      if (await boss.getQueue(MAIL_QUEUE)) await boss.updateQueue(MAIL_QUEUE, queueOptions);
      else await boss.createQueue(MAIL_QUEUE, queueOptions);
      if (opts.work ?? true) {
        await boss.work<MailMessage>(MAIL_QUEUE, { pollingIntervalSeconds: config.mailPollSeconds, batchSize: 1 }, async ([job]) => {
          try {
            await deliver(config, logger, transport, job.data);
          } catch (err) {
            log.warn({ err: { message: (err as Error).message, code: (err as { code?: string }).code }, template: job.data.template, attempt: job.retryCount + 1 }, 'mail delivery failed; it will be retried');
            throw err;
          }
        });
      }
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
      transport.close();
    },
  };
}
