import { join } from 'node:path';
import type { ImportProgress } from '@portal/seeds';

/** What the banner needs from the config (apps/api/src/config.ts). */
export interface BannerConfig {
  port: number;
  host: string;
  publicUrl?: string;
  seedDemo: boolean;
  demoPassword: string;
  smtpUrl?: string;
  dataDir: string;
}

/**
 * The lines `npm start` shows once the portal listens: the URL to open, the demo accounts
 * with their password (only when the demo data is seeded, i.e. SEED_DEMO / a development start), and
 * where mail goes (.eml files under DATA_DIR/mail without SMTP_URL). Payment test mode is announced by
 * scripts/start.mjs, not repeated here. Never prints secrets other than the public demo password.
 */
export function startBanner(config: BannerConfig, demoAccounts: ReadonlyArray<{ email: string; role: string }>): string[] {
  const local = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = config.publicUrl || `http://${local}:${config.port}`;
  const lines = [`portal ready: open ${url}`];
  if (config.seedDemo && demoAccounts.length) {
    lines.push(`demo accounts (password ${config.demoPassword}): ${demoAccounts.map((a) => `${a.email} (${a.role})`).join(', ')}`);
  }
  lines.push(
    config.smtpUrl
      ? 'mail: sent through SMTP_URL'
      : `mail: no SMTP_URL, so messages are written as .eml files to ${join(config.dataDir, 'mail')}`,
  );
  return lines;
}

/** One progress line for a terminal: `stores.csv.gz (1/3) reading  42 %  123,456 rows`. */
export function progressText(p: ImportProgress): string {
  const what = p.phase === 'done' ? 'imported' : p.phase === 'failed' ? 'FAILED' : p.phase;
  return `${p.file} (${p.index}/${p.files}) ${what} ${String(p.percent).padStart(3)} %  ${p.rows.toLocaleString('en-US')} rows${p.errors ? `, ${p.errors} refused` : ''}`;
}

/**
 * An import `onProgress` that redraws one line in place on a terminal (`out.isTTY`), ending it when a file
 * is done or failed; undefined when `out` is not a terminal (JSON logs keep the per-file summary lines).
 */
export function terminalProgress(out: { isTTY?: boolean; write(s: string): unknown }): ((p: ImportProgress) => void) | undefined {
  if (!out.isTTY) return undefined;
  return (p) => {
    const end = p.phase === 'done' || p.phase === 'failed';
    out.write(`\r\x1b[2K${progressText(p)}${end ? '\n' : ''}`);
  };
}
