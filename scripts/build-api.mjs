// Bundles the API (apps/api/src/main.ts, with libs/contracts, migrations and seeds) into dist/api/main.js,
// the importer's own process (apps/api/src/jobs/import-worker.ts, started by the API for each uploaded import)
// into dist/api/import-worker.js,
// and the ops commands into dist/ops/ (db.js: migrate, rollback, seed, import; users-invite.js;
// credentials-add.js), which the production image runs with plain node (scripts/portal), no tsx.
// Packages stay external (node_modules): every one they import is a production dependency of package.json
// (checked by scripts/build-api.test.ts), so `npm ci --omit=dev` installs all they need.
// TypeScript is stripped, not type-checked (that is `typecheck`).
//   node scripts/build-api.mjs [--outdir DIR]   (default dist)
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** Bundle name (under the output folder) → its entry point. */
export const ENTRY_POINTS = {
  'api/main': 'apps/api/src/main.ts',
  'api/import-worker': 'apps/api/src/jobs/import-worker.ts',
  'ops/db': 'scripts/db.ts',
  'ops/users-invite': 'scripts/users-invite.ts',
  'ops/credentials-add': 'scripts/credentials-add.ts',
};

/** Builds every bundle into `outdir`; answers esbuild's metafile (inputs, imports, outputs). */
export async function buildApi({ outdir = 'dist', write = true } = {}) {
  const result = await build({
    entryPoints: ENTRY_POINTS,
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    tsconfig: 'tsconfig.base.json',
    logLevel: 'warning',
    metafile: true,
    write,
  });
  return result.metafile;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
  buildApi({ outdir: values.outdir }).then(
    () =>
      console.log(
        `built ${Object.keys(ENTRY_POINTS)
          .map((k) => `${values.outdir}/${k}.js`)
          .join(', ')}`,
      ),
    () => process.exit(1), // esbuild has printed the errors
  );
}
