import type { Db } from '../../db/knex';

/** The shapes of outgoing mail (ARCHITECTURE §7): what modules queue and what the outbox delivers. */

/** One e-mail to send; text is required, html optional. */
export interface MailMessage {
  to: string;
  cc?: string[];
  subject: string;
  text: string;
  html?: string;
  /** Template name for logs and tests (password_reset, password_changed, order_confirmation…). */
  template: string;
  /**
   * Files to attach, named by kind and reference (e.g. `{ kind: 'invoice', orderId: 12 }`): the job row stays
   * small and the mail job renders each file when it sends (lib/mail/render.ts `registerMailAttachment`).
   */
  attach?: AttachmentRef[];
}

/** A file a queued mail names, rendered when the mail is sent. */
export interface AttachmentRef {
  kind: string;
  [key: string]: string | number;
}

/** A rendered attachment as nodemailer takes it. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/**
 * A mail rendered when it is sent (lib/mail/render.ts): a registered template and the non-secret data it
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
