// Types of scripts/build-api.mjs (used by scripts/build-api.test.ts).
import type { Metafile } from 'esbuild';
export const ENTRY_POINTS: Record<string, string>;
export function buildApi(opts?: { outdir?: string; write?: boolean }): Promise<Metafile>;
