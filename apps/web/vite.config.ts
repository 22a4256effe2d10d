import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { visualizer } from 'rollup-plugin-visualizer';

const root = fileURLToPath(new URL('.', import.meta.url));
/**
 * ANALYZE=html (treemap) or raw-data writes a bundle report (where the bytes go, with gzip sizes) to
 * bench/results/bundle.<html|json> (`npm run bench -- frontend` uses it).
 */
const analyze = process.env.ANALYZE === 'html' ? 'treemap' : (process.env.ANALYZE as 'treemap' | 'raw-data' | undefined);
const report =
  analyze &&
  visualizer({
    filename: fileURLToPath(new URL(`../../bench/results/bundle.${analyze === 'raw-data' ? 'json' : 'html'}`, import.meta.url)),
    template: analyze,
    gzipSize: true,
    brotliSize: analyze === 'treemap',
  });

/**
 * Brotli (quality 11) and gzip (level 9) copies of the hashed scripts and styles next to them (x.js.br,
 * x.js.gz): the API sends those when the browser accepts them, smaller than compressing on the fly
 * (brotli quality 4) and with no work per request (issue 15 §4).
 */
function precompress(): Plugin {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'portal:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir!;
      const files = Object.keys(bundle).filter((f) => /^assets\/[^/]+\.(js|css)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const body = await readFile(join(dir, f));
          if (body.length < 1024) return;
          await writeFile(
            join(dir, `${f}.br`),
            await br(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
          );
          await writeFile(join(dir, `${f}.gz`), await gz(body, { level: 9 }));
        }),
      );
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), precompress(), ...(report ? [report] : [])],
  resolve: {
    alias: {
      '@portal/contracts': fileURLToPath(new URL('../../libs/contracts/src/index.ts', import.meta.url)),
      // `@/lib/api` = apps/web/src/lib/api (tsconfig paths and jest's moduleNameMapper say the same).
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  build: { outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)), emptyOutDir: true, sourcemap: true },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:3000' } },
});
