/**
 * Ops CLI (issue 5 §3, ARCHITECTURE §6): stores a store's Monetra credentials, encrypted with AES-256-GCM
 * under PAYMENT_CREDENTIALS_KEY, in payment_credentials (replacing the row for the same store × app ×
 * environment). The password never appears in the output.
 *
 *   npm run credentials:add -- --store 2190 --env test --username U --password P [--app BCC] [--dek-name NAME]
 *
 * Uses DATABASE_URL, else the embedded PostgreSQL under .data/ (the one `npm start` uses). Pass the
 * password with --password-stdin (read from standard input) to keep it out of the shell history.
 * Exits 2 on bad arguments, 1 when the store does not exist or the database refuses.
 */
import { join } from 'node:path';
import { loadConfig } from '../apps/api/src/config';
import { createDb, migrateLatest } from '../apps/api/src/db/knex';
import { startEmbeddedPostgres } from '../apps/api/src/db/embedded';
import { saveMonetraCredentials } from '../apps/api/src/modules/payments/payments.service';
import { DEFAULT_DEK_NAME } from '../apps/api/src/modules/payments/credentials';

const USAGE = 'usage: npm run credentials:add -- --store <id> --env test|prod --username <user> (--password <pw> | --password-stdin) [--app BCC|IMS] [--dek-name NAME]';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function readStdin(): Promise<string> {
  let s = '';
  for await (const chunk of process.stdin) s += chunk;
  return s.replace(/\r?\n$/, '');
}

async function run() {
  const args = process.argv.slice(2);
  const store = Number(flag(args, '--store'));
  const env = flag(args, '--env');
  const username = flag(args, '--username');
  const password = args.includes('--password-stdin') ? await readStdin() : flag(args, '--password');
  const app = flag(args, '--app') ?? 'BCC';
  const dekName = flag(args, '--dek-name') ?? DEFAULT_DEK_NAME;
  const problems = [
    !(Number.isInteger(store) && store > 0) && '--store must be a store id',
    env !== 'test' && env !== 'prod' && '--env must be test or prod',
    !username && '--username is required',
    !password && '--password (or --password-stdin) is required',
    app !== 'BCC' && app !== 'IMS' && '--app must be BCC or IMS',
    !dekName.trim() && '--dek-name must not be empty',
  ].filter(Boolean);
  if (problems.length) {
    console.error(`${problems.join('\n')}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  if (!config.paymentCredentialsKey) throw new Error('PAYMENT_CREDENTIALS_KEY is not set');
  let url = config.databaseUrl;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  if (!url) {
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
      storeId: store, environment: env as 'test' | 'prod', username: username!, password: password!, appCode: app as 'BCC' | 'IMS', dekName,
    });
    console.log(`${saved.created ? 'added' : 'replaced'} Monetra credentials #${saved.id} for store ${store} (${found.name}), app ${app}, environment ${env}, user ${username}, encrypted under DEK ${dekName}`);
  } finally {
    await db.destroy();
    if (embedded) await embedded.stop();
  }
}

run().catch((e) => { console.error(e instanceof Error ? e.message : e); process.exit(1); });
