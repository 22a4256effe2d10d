// Bundles the API (apps/api/src/main.ts, with libs/contracts, migrations and seeds) into dist/api/main.js, and the
// importer's own process (apps/api/src/jobs/import-worker.ts, started by the API for each uploaded import) into
// dist/api/import-worker.js.
// Packages stay external (node_modules); TypeScript is stripped, not type-checked (that is `typecheck`).
import { build } from 'esbuild';
await build({
  entryPoints: { main: 'apps/api/src/main.ts', 'import-worker': 'apps/api/src/jobs/import-worker.ts' },
  outdir: 'dist/api',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: true,
  tsconfig: 'tsconfig.base.json',
  logLevel: 'warning',
});
console.log('built dist/api/main.js and dist/api/import-worker.js');
