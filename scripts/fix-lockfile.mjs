// The npm registry reachable here lacks some other platforms' optional binaries (e.g. @swc/core-darwin-arm64
// at the locked version), so `npm install` writes a package-lock.json whose optionalDependencies name
// packages it could not lock, and `npm ci` then refuses the lockfile ("Missing: … from lock file").
// This drops those unresolvable optional entries (they are never installed on this platform anyway).
// Run after `npm install`: `node scripts/fix-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const present = new Set(Object.keys(lock.packages).map((k) => k.replace(/^.*node_modules\//, '')));
let dropped = 0;
for (const rec of Object.values(lock.packages)) {
  if (!rec.optionalDependencies) continue;
  for (const name of Object.keys(rec.optionalDependencies)) {
    if (!present.has(name)) {
      delete rec.optionalDependencies[name];
      dropped++;
    }
  }
  if (Object.keys(rec.optionalDependencies).length === 0) delete rec.optionalDependencies;
}
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(`package-lock.json: dropped ${dropped} optional dependencies that the registry could not lock`);
