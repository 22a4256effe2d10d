// Types of scripts/lock-platforms.mjs (used by scripts/lock-platforms.test.ts).
export interface LockFile {
  packages?: Record<string, { version?: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>;
}
export const REQUIRED_SIBLINGS: Record<string, string[]>;
export function missingSiblings(lock: LockFile): { pkg: string; platform: string }[];
export function familyCount(lock: LockFile): number;
export function forgetParents(lock: LockFile, pkgs: string[]): string[];
export function refreshLock(root: string): { pkg: string; platform: string }[];
