/**
 * `npm run bench -- <name> [args]`: runs bench/<name>.ts (login, catalog, orders, import, admin-import, frontend, integrations, screens, grants). Each benchmark
 * exports `run(args: string[]): Promise<void>`, prints its numbers, and writes bench/results/<name>.json.
 * Benchmarks are measurements, not tests: they never fail a build.
 */
const [bench, ...args] = process.argv.slice(2);
const known = ['login', 'catalog', 'orders', 'import', 'admin-import', 'frontend', 'integrations', 'screens', 'grants'];
if (!bench || !known.includes(bench)) {
  console.error(`usage: npm run bench -- <${known.join('|')}> [args]`);
  process.exit(2);
}
import(`./${bench}.ts`)
  .then((m: { run: (a: string[]) => Promise<void> }) => m.run(args))
  .then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );

export {};
