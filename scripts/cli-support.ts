/**
 * What the ops CLIs share: a UsageError printed as one line (exit 2), node:util parseArgs
 * errors said in a line, any other failure said in one line without SQL or stack, and the environment
 * of a command that needs no secret.
 */
import { randomBytes } from 'node:crypto';

/**
 * The environment for an ops command that does not use the secrets named in `unused` (db:migrate,
 * db:rollback, db:seed and db:import use neither; credentials:add needs the payment key): each filled with
 * a random value when unset, so a production environment that gives only what the command needs
 * (`docker run -e DATABASE_URL=… liquor-portal db:migrate`; the image sets NODE_ENV=production) still
 * parses. The fillers are never used or printed.
 */
export function opsEnv(
  env: NodeJS.ProcessEnv = process.env,
  unused: readonly ('JWT_SECRET' | 'PAYMENT_CREDENTIALS_KEY')[] = ['JWT_SECRET', 'PAYMENT_CREDENTIALS_KEY'],
): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const k of unused) out[k] ||= randomBytes(32).toString('hex');
  return out;
}

/** A bad argument: printed as one line with a pointer to --help, exit 2. */
export class UsageError extends Error {}

/** A node:util parseArgs error → one short line ("unknown option --x", "--board needs a value"). */
export function describeParseError(e: Error & { code?: string }): string {
  const m = e.message;
  const opt = /'(-{1,2}[^' ]+)/.exec(m)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${opt ?? ''}`.trim();
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `unexpected argument ${/'([^']*)'/.exec(m)?.[1] ?? ''}: this command takes no such argument`.trim();
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = (opt ?? 'the option').replace(/ <value>$/, '');
    if (/ambiguous/.test(m)) return `${name} needs a value (one starting with "-" is written ${name}=-…)`;
    return /argument missing/.test(m) ? `${name} needs a value` : `${name} takes no value`;
  }
  return m.split('\n')[0];
}

/** One line for a failure: connection problems named with the fix, database errors without the SQL (knex prefixes it), no stack. */
export function describeFailure(e: unknown): string {
  const err = e as { code?: string; message?: string; address?: string; port?: number };
  const code = typeof err?.code === 'string' ? err.code : undefined;
  if (code && ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNRESET'].includes(code)) {
    return `cannot reach the database (${code}${err.address ? ` at ${err.address}${err.port ? `:${err.port}` : ''}` : ''}): is PostgreSQL running and DATABASE_URL right?`;
  }
  if (code === '28P01' || code === '28000') return 'the database refused the credentials in DATABASE_URL';
  if (code === '3D000') return 'the database named in DATABASE_URL does not exist (createdb it first)';
  let message = (err?.message ?? String(e)).split('\n')[0];
  const pg = Boolean(code && /^[0-9A-Z]{5}$/.test(code));
  // knex errors read "<the SQL> - <the server's message>": keep the server's message only.
  if (pg && message.includes(' - ')) message = message.slice(message.lastIndexOf(' - ') + 3);
  return pg ? `database error ${code}: ${message}` : message;
}
