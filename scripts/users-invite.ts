/**
 * Ops CLI: invites a person, e.g. the first super administrator of a real deployment.
 *
 *   npm run users:invite -- --email E --role CODE [--role CODE…] [--outlet ID|CODE…] [--store ID…] [--board NUMBER…]
 *                          [--first-name F] [--last-name L]
 *
 * Creates an invitation as the system actor (no inviter user; the privilege rules of the invite dialog do
 * not apply to ops), mails it through the outbox (delivered by the running portal's worker) and prints the
 * link `PUBLIC_URL/invitation/accept?inv=<token>`. Each role is granted where it is held (ARCHITECTURE §11):
 * outlet roles at the --outlet outlets, store roles at the --store stores, board roles at the --board boards;
 * super_admin everywhere (it needs no place). Uses
 * DATABASE_URL, else the embedded PostgreSQL under .data/. Works with NODE_ENV=production (the portal's
 * JWT and payment keys are not needed here). Unknown roles and outlets, bad arguments and database
 * problems end with one line on stderr (no SQL, no stack): exit 2 for bad arguments, 1 otherwise.
 */
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { INVITATION_EMAIL_PATTERN } from '@portal/contracts';
import { loadConfig } from '../apps/api/src/config';
import { createDb, migrateLatest, type Db } from '../apps/api/src/db/knex';
import { createLogger } from '../apps/api/src/logger';
import { createMailOutbox } from '../apps/api/src/jobs/mail-queue';
import { AppError } from '../apps/api/src/http/errors';
import { seedReference } from '../seeds';
import { SYSTEM, createInvitation } from '../apps/api/src/modules/invitations/invitations.service';

const USAGE = `usage: npm run users:invite -- --email <address> --role <code> [--role <code>…] [--outlet <id|code>…]
                           [--store <store number>…] [--board <board number>…] [--first-name <name>] [--last-name <name>]

Invites a person to the portal and prints the acceptance link (valid 7 days); the mail goes out through
the running portal's outbox. Roles are role codes (e.g. super_admin, store_manager, outlet_buyer), each
held where its kind is: outlet roles at the --outlet outlets (ids or codes), store roles (store_manager,
store_staff) at the --store stores (warehouse numbers), board roles (board_admin) at the --board boards
(board numbers); super_admin holds everywhere and needs none.

Environment: DATABASE_URL (else the embedded database under .data/), PUBLIC_URL (base of the link).`;

/** A refusal to print as one line (exit code 2 for bad arguments, 1 for the rest). */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

interface Args {
  email: string;
  roles: string[];
  outlets: string[];
  stores: string[];
  boards: string[];
  firstName?: string;
  lastName?: string;
}

/** Parses argv; `--outlet 1 2 3` and repeated `--outlet 1 --outlet 2` both work (same for --role). */
export function parseCliArgs(argv: string[]): Args | 'help' {
  const expanded: string[] = [];
  let last: string | undefined;
  for (const a of argv) {
    if (a.startsWith('--')) {
      last = a;
      expanded.push(a);
      continue;
    }
    // A bare value after a list flag's first value repeats the flag (--outlet 1 2 → --outlet 1 --outlet 2).
    if (['--outlet', '--role', '--store', '--board'].includes(last ?? '') && expanded[expanded.length - 1] !== last) expanded.push(last!);
    expanded.push(a);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: expanded,
      allowPositionals: false,
      strict: true,
      options: {
        email: { type: 'string' },
        role: { type: 'string', multiple: true },
        outlet: { type: 'string', multiple: true },
        store: { type: 'string', multiple: true },
        board: { type: 'string', multiple: true },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new CliError(`${(e as Error).message.split('\n')[0]} (see --help)`, 2);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const email = v.email?.trim().toLowerCase();
  if (!email) throw new CliError('--email is required (see --help)', 2);
  if (!INVITATION_EMAIL_PATTERN.test(email) || !z.email().safeParse(email).success)
    throw new CliError(`--email ${v.email} is not a valid email address`, 2);
  const roles = (v.role ?? []).map((r) => r.trim()).filter(Boolean);
  if (!roles.length) throw new CliError('--role is required: a role code, e.g. super_admin (see --help)', 2);
  const outlets = (v.outlet ?? []).map((o) => o.trim()).filter(Boolean);
  const numbers = (flag: string, xs: string[] | undefined) =>
    (xs ?? []).map((x) => {
      const t = x.trim();
      if (!/^\d{1,9}$/.test(t)) throw new CliError(`--${flag} ${x} is not a number`, 2);
      return t;
    });
  const stores = numbers('store', v.store);
  const boards = numbers('board', v.board);
  return {
    email,
    roles,
    outlets,
    stores,
    boards,
    firstName: v['first-name']?.trim() || undefined,
    lastName: v['last-name']?.trim() || undefined,
  };
}

/** Role codes → ids; unknown codes are refused with the list of known ones. */
async function resolveRoles(db: Db, codes: string[]): Promise<{ id: number; code: string; name: string; scopeType: string }[]> {
  const rows: { id: number; code: string; role_name: string | null; scope_type: string }[] = await db('roles')
    .orderBy('role_level')
    .select('id', 'code', 'role_name', 'scope_type');
  return codes.map((code) => {
    const r = rows.find((x) => x.code === code);
    if (!r) {
      const known = rows.map((x) => x.code).join(', ');
      throw new CliError(`unknown role "${code}"; known roles: ${known || 'none'}`);
    }
    return { id: r.id, code: r.code, name: r.role_name ?? r.code, scopeType: r.scope_type };
  });
}

/** Store numbers → ids of active stores; unknown or inactive ones are refused. */
async function resolveStores(db: Db, refs: string[]): Promise<{ id: number; name: string }[]> {
  const out: { id: number; name: string }[] = [];
  for (const ref of refs) {
    const row = await db('stores')
      .where({ id: Number(ref) })
      .first('id', 'name', 'active');
    if (!row) throw new CliError(`unknown store "${ref}" (give a store number)`);
    if (!row.active) throw new CliError(`store "${ref}" (${row.name}) is not active`);
    if (!out.some((o) => o.id === row.id)) out.push({ id: row.id, name: row.name });
  }
  return out;
}

/** Board numbers → board ids; unknown ones are refused. */
async function resolveBoards(db: Db, refs: string[]): Promise<{ id: number; name: string }[]> {
  const out: { id: number; name: string }[] = [];
  for (const ref of refs) {
    const row = await db('boards')
      .where({ board_number: Number(ref) })
      .first('id', 'name');
    if (!row) throw new CliError(`unknown board "${ref}" (give a board number)`);
    if (!out.some((o) => o.id === row.id)) out.push({ id: row.id, name: row.name });
  }
  return out;
}

/** Outlet ids or codes → ids of active outlets; unknown or inactive ones are refused. */
async function resolveOutlets(db: Db, refs: string[]): Promise<{ id: number; name: string }[]> {
  const out: { id: number; name: string }[] = [];
  for (const ref of refs) {
    const byId = /^\d{1,9}$/.test(ref);
    const row = await db('outlets')
      .where(byId ? { id: Number(ref) } : { outlet_code: ref })
      .first('id', 'name', 'active');
    if (!row) throw new CliError(`unknown outlet "${ref}" (give an outlet id or outlet code)`);
    if (!row.active) throw new CliError(`outlet "${ref}" (${row.name}) is not active`);
    if (!out.some((o) => o.id === row.id)) out.push({ id: row.id, name: row.name });
  }
  return out;
}

async function run(): Promise<number> {
  const args = parseCliArgs(process.argv.slice(2));
  if (args === 'help') {
    console.log(USAGE);
    return 0;
  }
  // This command needs neither the API's signing key nor the payment key: fill them so a production
  // environment without them still parses (they are never used or printed here).
  const filler = () => randomBytes(32).toString('hex');
  let config;
  try {
    config = loadConfig({
      ...process.env,
      JWT_SECRET: process.env.JWT_SECRET || filler(),
      PAYMENT_CREDENTIALS_KEY: process.env.PAYMENT_CREDENTIALS_KEY || filler(),
      JOBS_ENABLED: 'false',
    });
  } catch (e) {
    throw new CliError((e as Error).message.replace(/^Refusing to start/, 'Refusing to run'));
  }
  let url = config.databaseUrl;
  let embedded: Awaited<ReturnType<typeof import('../apps/api/src/db/embedded').startEmbeddedPostgres>> | undefined;
  if (!url) {
    const { startEmbeddedPostgres } = await import('../apps/api/src/db/embedded');
    embedded = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'pg'), port: config.embeddedPgPort, database: 'portal' });
    url = embedded.url;
  }
  const db = createDb(url, { max: 2 });
  const logger = createLogger('error');
  const outbox = createMailOutbox({ connectionString: url, config, logger, work: false });
  let outboxStarted = false;
  try {
    try {
      await db.raw('select 1');
    } catch (e) {
      throw new CliError(`cannot reach the database: ${(e as Error).message.split('\n')[0]}`);
    }
    await migrateLatest(db);
    // A database nobody started the portal on yet has no role catalogue: load the reference data once.
    if (!(await db('roles').first('id'))) await seedReference(db);
    const roles = await resolveRoles(db, args.roles);
    const outlets = await resolveOutlets(db, args.outlets);
    const stores = await resolveStores(db, args.stores);
    const boards = await resolveBoards(db, args.boards);
    const need = { outlet: ['--outlet', outlets.length], store: ['--store', stores.length], board: ['--board', boards.length] } as const;
    for (const r of roles) {
      const n = need[r.scopeType as keyof typeof need];
      if (n && !n[1]) throw new CliError(`${n[0]} is required for the role ${r.code} (it is held at ${r.scopeType}s; see --help)`, 2);
    }
    await outbox.start();
    outboxStarted = true;
    const linkBase = (config.publicUrl || `http://localhost:${config.port}`).replace(/\/+$/, '');
    const local = args.email.split('@')[0];
    const created = await createInvitation(
      { config, db, logger, mailer: outbox.mailer },
      SYSTEM,
      {
        email: args.email,
        firstName: args.firstName ?? local,
        lastName: args.lastName ?? (roles[0].code === 'super_admin' ? 'Administrator' : 'User'),
        roleIds: roles.map((r) => r.id),
        outletIds: outlets.map((o) => o.id),
        storeIds: stores.map((st) => st.id),
        boardIds: boards.map((b) => b.id),
      },
      { ip: null, linkBase },
    );
    const places = [...outlets, ...stores, ...boards].map((p) => p.name);
    console.log(
      `invited ${created.email} as ${roles.map((r) => r.name).join(', ')}${places.length ? ` at ${places.join(', ')}` : ''}; the link works once, until ${created.expiresAt}`,
    );
    console.log(
      `mail queued in the outbox (the running portal delivers it${config.smtpUrl ? '' : ' as an .eml file under ' + join(config.dataDir, 'mail')})`,
    );
    console.log(created.link);
    return 0;
  } finally {
    if (outboxStarted) await outbox.stop().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    if (embedded) await embedded.stop().catch(() => undefined);
  }
}

/** One line for any refusal: our own messages, typed API errors, else the first line of the cause. */
function oneLine(e: unknown): { message: string; code: number } {
  if (e instanceof CliError) return { message: e.message, code: e.exitCode };
  if (e instanceof AppError) return { message: e.message, code: 1 };
  const err = e as { message?: string; code?: string };
  // PostgreSQL errors carry SQL in `message` for some drivers' paths: name the class of problem only.
  if (typeof err?.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code))
    return { message: `the database refused the invitation (PostgreSQL error ${err.code})`, code: 1 };
  return { message: String(err?.message ?? e).split('\n')[0], code: 1 };
}

if (require.main === module) {
  run().then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      const { message, code } = oneLine(e);
      console.error(`users:invite: ${message}`);
      process.exitCode = code;
    },
  );
}
