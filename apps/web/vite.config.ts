import { defineConfig } from 'vite';
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

export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), ...(report ? [report] : [])],
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
