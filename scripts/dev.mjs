// `npm run dev`: the API in watch mode (tsx) on PORT 3000 and the Vite dev server on 5173 with a proxy
// from /api to the API; demo data and payment test mode on unless set (as `npm start` in development).
// Ctrl-C stops both.
import { spawn } from 'node:child_process';
const procs = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', 'apps/api/src/main.ts'], {
    stdio: 'inherit',
    env: { SEED_DEMO: 'true', PAYMENT_TEST_MODE: 'true', ...process.env, WEB_DIR: '' },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--config', 'apps/web/vite.config.ts'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const p of procs) p.kill('SIGINT');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const p of procs)
  p.on('exit', (code) => {
    if (code) {
      stop();
      process.exitCode = code;
    }
  });
