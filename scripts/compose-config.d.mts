// Types of scripts/compose-config.mjs (used by scripts/ci-files.slow.test.ts).
export interface Compose {
  cmd: string;
  args: string[];
  v1: boolean;
}
export const COMPOSE_FILES: string[];
export function findCompose(): Compose | undefined;
export function checkComposeFile(compose: Compose, file: string): { ok: boolean; message: string };
