import { progressText, startBanner, terminalProgress } from './start-banner';

/** The `npm start` banner and the import progress line. */
const base = { port: 3000, host: '0.0.0.0', seedDemo: true, demoPassword: 'Portal#2026', dataDir: '.data' };
const accounts = [
  { email: 'admin@example.com', role: 'super_admin' },
  { email: 'buyer@example.com', role: 'outlet_buyer' },
];
const progress = {
  file: 'stores.csv.gz',
  kind: 'stores' as const,
  index: 1,
  files: 3,
  phase: 'reading' as const,
  rows: 123456,
  percent: 42,
  elapsedMs: 900,
  errors: 0,
};

describe('startBanner', () => {
  it('when the demo data is seeded without SMTP, then it shows the URL, the demo accounts and the mail folder', () => {
    expect(startBanner(base, accounts)).toEqual([
      'portal ready: open http://localhost:3000',
      'demo accounts (password Portal#2026): admin@example.com (super_admin), buyer@example.com (outlet_buyer)',
      'mail: no SMTP_URL, so messages are written as .eml files to .data/mail',
    ]);
  });

  it('when there is no demo data and SMTP is set, then no accounts and no password are shown', () => {
    const lines = startBanner({ ...base, seedDemo: false, smtpUrl: 'smtp://mail:25', host: '127.0.0.1', port: 3998 }, accounts);
    expect(lines).toEqual(['portal ready: open http://127.0.0.1:3998', 'mail: sent through SMTP_URL']);
    expect(lines.join('\n')).not.toMatch(/Portal#2026|smtp:\/\//);
  });

  it('when PUBLIC_URL is set, then that is the URL to open', () => {
    expect(startBanner({ ...base, publicUrl: 'https://portal.example.com' }, [])[0]).toBe('portal ready: open https://portal.example.com');
  });
});

describe('import progress', () => {
  it('when a file is being read, then one line shows the file, rows and %', () => {
    expect(progressText(progress)).toBe('stores.csv.gz (1/3) reading  42 %  123,456 rows');
  });

  it('when writing to a terminal, then the line is redrawn in place and ended when the file is done', () => {
    const out: string[] = [];
    const onProgress = terminalProgress({ isTTY: true, write: (s: string) => out.push(s) })!;
    onProgress(progress);
    onProgress({ ...progress, phase: 'done', percent: 100 });
    expect(out).toEqual([
      '\r\x1b[2Kstores.csv.gz (1/3) reading  42 %  123,456 rows',
      '\r\x1b[2Kstores.csv.gz (1/3) imported 100 %  123,456 rows\n',
    ]);
  });

  it('when the output is not a terminal, then there is no progress line', () => {
    expect(terminalProgress({ isTTY: false, write: () => true })).toBeUndefined();
  });
});
