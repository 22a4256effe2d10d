// `npm start`: builds the API bundle and the SPA (a few seconds), then runs the portal on PORT (3000):
// the API at /api/v1 and the SPA at /. Without DATABASE_URL it starts the embedded PostgreSQL under
// .data/pg, migrates, and loads reference and real data on first start (apps/api/src/main.ts); in
// development also the demo data, with payment test mode on (see below).
import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const run = (cmd, args) => execFileSync(process.execPath, [resolve(cmd), ...args], { stdio: 'inherit' });
if (!process.env.SKIP_BUILD) {
  console.log('building the API and the SPA…');
  run('scripts/build-api.mjs', []);
  run('node_modules/vite/bin/vite.js', ['build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn']);
}
// The portal runs in its own process group: Ctrl-C (sent by the terminal to the whole foreground group)
// reaches only this script, which forwards it, so the API drains requests and the mail queue and only
// then stops its embedded PostgreSQL (which would otherwise get the same SIGINT and quit first).
// Development (NODE_ENV unset or development) is the two-command demo: demo data and payment test mode
// are switched on here, and only here; an explicit SEED_DEMO / PAYMENT_TEST_MODE wins.
const env = { ...process.env };
if ((env.NODE_ENV ?? 'development') === 'development') {
  env.SEED_DEMO ??= 'true';
  env.PAYMENT_TEST_MODE ??= 'true';
  const on = (v) => v === 'true' || v === '1';
  console.log(
    `development start: demo data ${on(env.SEED_DEMO) ? 'on' : 'off'} (SEED_DEMO=${env.SEED_DEMO}); payment test mode ${
      on(env.PAYMENT_TEST_MODE)
        ? 'ON (PAYMENT_TEST_MODE=true): no money moves, only the test cards pay (4111 1111 1111 1111 approves)'
        : `off (PAYMENT_TEST_MODE=${env.PAYMENT_TEST_MODE})`
    }`,
  );
}
const child = spawn(process.execPath, ['--enable-source-maps', resolve('dist/api/main.js')], { stdio: 'inherit', detached: true, env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal));
process.on('exit', () => {
  if (child.exitCode === null) child.kill('SIGTERM');
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
