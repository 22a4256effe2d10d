import type { Config } from './config';
import type { Db } from './db/knex';
import type { Logger } from './logger';

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

/** The mail outbox (ARCHITECTURE §7): enqueue inside the caller's transaction; a worker delivers. */
export interface Mailer {
  enqueue(db: Db, message: MailMessage): Promise<void>;
}

/** What every module's routes get: config, the DB, the logger and the outbound services. */
export interface AppContext {
  config: Config;
  db: Db;
  logger: Logger;
  mailer: Mailer;
}
