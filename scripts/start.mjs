// `npm start`: builds the API bundle and the SPA (a few seconds), then runs the portal on PORT (3000):
// the API at /api/v1 and the SPA at /. Without DATABASE_URL it starts the embedded PostgreSQL under
// .data/pg, migrates, and loads reference, real and demo data on first start (apps/api/src/main.ts).
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
const child = spawn(process.execPath, ['--enable-source-maps', resolve('dist/api/main.js')], { stdio: 'inherit', detached: true });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal));
process.on('exit', () => { if (child.exitCode === null) child.kill('SIGTERM'); });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
