// `npm start`: builds the API bundle and the SPA (a few seconds), then runs the portal on PORT (3000):
// the API at /api/v1 and the SPA at /. Without DATABASE_URL it starts the embedded PostgreSQL under
// .data/pg, migrates, and loads reference, real and demo data on first start (apps/api/src/main.ts).
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const run = (cmd, args) => execFileSync(process.execPath, [resolve(cmd), ...args], { stdio: 'inherit' });
if (!process.env.SKIP_BUILD) {
  console.log('building the API and the SPA…');
  run('scripts/build-api.mjs', []);
  run('node_modules/vite/bin/vite.js', ['build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn']);
}
await import(pathToFileURL(resolve('dist/api/main.js')).href);
