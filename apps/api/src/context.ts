import type { Config } from './config';
import type { Db } from './db/knex';
import type { Logger } from './logger';
import type { FeedIndex } from './modules/integrations/feed-index';

/** One e-mail to send; text is required, html optional. */
export interface MailMessage {
  to: string;
  cc?: string[];
  subject: string;
  text: string;
  html?: string;
  /** Template name for logs and tests (password_reset, password_changed, order_confirmation…). */
  template: string;
}

/**
 * A mail rendered when it is sent (jobs/mail-render.ts): a registered template and the non-secret data it
 * needs. Use it for any mail that carries a one-time secret, so the queued job holds none.
 */
export interface DeferredMail {
  render: string;
  to: string;
  data: Record<string, unknown>;
}

/** The mail outbox (ARCHITECTURE §7): enqueue inside the caller's transaction; a worker delivers. */
export interface Mailer {
  enqueue(db: Db, message: MailMessage | DeferredMail): Promise<void>;
}

/** What every module's routes get: config, the DB, the logger and the outbound services. */
export interface AppContext {
  config: Config;
  db: Db;
  logger: Logger;
  mailer: Mailer;
  /** The data-import job queue (jobs/import-queue.ts); absent where no queue runs (then uploads answer 503). */
  imports?: { enqueue(db: Db, runId: string): Promise<void> };
  /** The order feed's index in memory (modules/integrations/feed-index.ts); absent → every page is read from the database. */
  feedIndex?: FeedIndex;
}
