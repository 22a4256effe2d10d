import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { MailMessage } from '../context';
import type { MailAttachment } from '../lib/mail/message';

/**
 * Mail delivery. With SMTP_URL: nodemailer over SMTP. Without: each message is written as an .eml file
 * under DATA_DIR/mail and its links are logged outside production (ARCHITECTURE §7).
 */
export function createTransport(config: Config): nodemailer.Transporter {
  if (config.smtpUrl) return nodemailer.createTransport(withSmtpTimeouts(config.smtpUrl));
  return nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
}

/**
 * Adds bounded SMTP timeouts (ms) and connection pooling unless the URL sets its own: a hanging server fails the attempt (the
 * queue retries) well before the job's 120 s expiry, so a message is never sent twice by an expired job.
 */
function withSmtpTimeouts(smtpUrl: string): string {
  const u = new URL(smtpUrl);
  // Pooled connections (at most 5) so the worker's concurrent sends reuse SMTP sessions.
  for (const [k, v] of Object.entries({
    connectionTimeout: '10000',
    greetingTimeout: '10000',
    socketTimeout: '60000',
    pool: 'true',
    maxConnections: '5',
  })) {
    if (!u.searchParams.has(k)) u.searchParams.set(k, v);
  }
  return u.toString();
}

/**
 * Sends one message now (the outbox worker calls it). Without SMTP it writes the .eml file and, outside
 * production, logs its links so a developer can follow a reset link. Throws when SMTP refuses or is
 * down: the queue retries with backoff.
 */
export async function deliver(
  config: Config,
  logger: Logger,
  transport: nodemailer.Transporter,
  msg: MailMessage,
  attachments: MailAttachment[] = [],
): Promise<void> {
  const info = await transport.sendMail({
    from: config.mailFrom,
    to: msg.to,
    cc: msg.cc,
    subject: msg.subject,
    text: msg.text,
    html: msg.html,
    ...(attachments.length ? { attachments } : {}),
  });
  if (!config.smtpUrl) {
    const dir = join(config.dataDir, 'mail');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${msg.template}-${randomBytes(3).toString('hex')}.eml`);
    writeFileSync(file, (info as unknown as { message: Buffer }).message);
    const links = config.production ? undefined : (msg.text.match(/https?:\/\/\S+/g) ?? []);
    logger.info({ file, template: msg.template, links }, 'mail written (no SMTP configured)');
  } else {
    logger.info({ template: msg.template, messageId: info.messageId }, 'mail sent');
  }
}
