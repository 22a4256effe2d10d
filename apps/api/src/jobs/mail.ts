import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Mailer, MailMessage } from '../context';

/**
 * Mail delivery. With SMTP_URL: nodemailer over SMTP. Without: each message is written as an .eml file
 * under DATA_DIR/mail and its links are logged (ARCHITECTURE §7).
 */
export function createTransport(config: Config) {
  if (config.smtpUrl) return nodemailer.createTransport(config.smtpUrl);
  return nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
}

/** Sends one message now; writes the .eml file in development. Throws when SMTP refuses. */
export async function deliver(config: Config, logger: Logger, transport: nodemailer.Transporter, msg: MailMessage) {
  const info = await transport.sendMail({ from: config.mailFrom, to: msg.to, cc: msg.cc, subject: msg.subject, text: msg.text, html: msg.html });
  if (!config.smtpUrl) {
    const dir = join(config.dataDir, 'mail');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${msg.template}-${Math.random().toString(36).slice(2, 8)}.eml`);
    writeFileSync(file, (info as unknown as { message: Buffer }).message);
    const links = msg.text.match(/https?:\/\/\S+/g) ?? [];
    logger.info({ file, template: msg.template, links }, 'mail written (no SMTP configured)');
  }
}

/** A direct mailer (no queue): used until the pg-boss outbox is wired. */
export function createDirectMailer(config: Config, logger: Logger): Mailer {
  const transport = createTransport(config);
  return {
    async enqueue(_db, msg) {
      deliver(config, logger, transport, msg).catch((err) => logger.error({ err, template: msg.template }, 'mail delivery failed'));
    },
  };
}
