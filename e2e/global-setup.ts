import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import apiGlobalSetup from '../apps/api/src/test/global-setup';

/** E2E setup: the built SPA must exist (built here when missing), then the API's template database. */
export default async function globalSetup() {
  if (!existsSync('dist/web/index.html') || !existsSync('dist/api/main.js')) {
    execSync('npx nx run-many -t build --projects=web,api', { stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  }
  await apiGlobalSetup();
}
