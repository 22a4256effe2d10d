import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import type { Knex } from 'knex';
import { ROLES } from '@portal/contracts';
import { syntheticOrders } from './synthetic-orders';

/**
 * A synthetic scale dataset for development and benchmarks (issue 26): `npm run db:seed -- --synthetic
 * users=100000,outlets=10000`. Each kind is a generator in SYNTHETIC_KINDS (add a kind there: a count's
 * parser, its order and its `seed`); they run in `order`, so outlets exist before the users granted there.
 *
 * - Fast: set-based `INSERT … SELECT generate_series(…)` in batches (no row-by-row round trips).
 * - Idempotent: rows are named by their number (outlet code SYN-O-000001, email syn-user-000001@example.com)
 *   and inserted with ON CONFLICT DO NOTHING; a rerun with the same counts adds nothing, a larger count
 *   adds only the missing ones.
 * - Refused in production: the users are fictitious and would show up in every real list.
 * - Realistic spread: outlets belong to the first board and are each linked to one active store (round robin);
 *   users hold, by number: 1 % board administrator, 4 % store manager and 5 % store staff (at a store), 10 %
 *   outlet manager, 50 % buyer and 30 % viewer (at an outlet), every tenth buyer at a second outlet; 5 %
 *   inactive; 1 in 7 never signed in, the rest within the past year. Their password is unusable.
 */

/** What `seedSynthetic` did for one kind. */
export interface SyntheticResult {
  kind: string;
  requested: number;
  created: number;
  ms: number;
}
export interface SyntheticContext {
  log: (line: string) => void;
}
/** A generator of one kind of rows. */
export interface SyntheticKind {
  /** Run order (lower first). */
  order: number;
  /** Largest count accepted. */
  max: number;
  help: string;
  /** Makes rows 1..`count` of this kind exist; answers how many it created. */
  seed(db: Knex, count: number, ctx: SyntheticContext): Promise<number>;
}

/** Refused with a clear message (production, a bad spec, missing prerequisites). */
export class SyntheticError extends Error {}

const BATCH = 10_000;
const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Cara',
  'Dev',
  'Eli',
  'Fay',
  'Gus',
  'Hana',
  'Ivan',
  'Jo',
  'Kai',
  'Lena',
  'Milo',
  'Nia',
  'Omar',
  'Pia',
  'Quinn',
  'Rosa',
  'Sam',
  'Tess',
  'Uma',
  'Vic',
  'Wes',
  'Xena',
  'Yuri',
  'Zoe',
];
const LAST_NAMES = [
  'Adler',
  'Brooks',
  'Chen',
  'Diaz',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Novak',
  'Olsen',
  'Patel',
  'Quist',
  'Rossi',
  'Sato',
  'Tran',
  'Ueda',
  'Vargas',
  'Weber',
  'Young',
  'Zhang',
];
const CITIES = ['DES MOINES', 'AMES', 'DAVENPORT', 'CEDAR RAPIDS', 'SIOUX CITY', 'IOWA CITY', 'WATERLOO', 'DUBUQUE', 'ANKENY', 'URBANDALE'];
const OUTLET_KINDS = ['Tavern', 'Bistro', 'Lounge', 'Grill', 'Hotel Bar', 'Pub', 'Supper Club', 'Taproom'];
/** Largest count of a kind (the rows' numbers are 6 digits, so they sort as text). */
const MAX = 999_999;

const sqlArray = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`;

/** Runs `fn(from, to)` over 1..count in batches of BATCH. */
async function inBatches(count: number, fn: (from: number, to: number) => Promise<number>): Promise<number> {
  let created = 0;
  for (let from = 1; from <= count; from += BATCH) created += await fn(from, Math.min(count, from + BATCH - 1));
  return created;
}

async function firstBoardId(db: Knex): Promise<number> {
  const b = await db('boards').orderBy('board_number').first('id');
  if (b) return b.id;
  const [made] = await db('boards').insert({ board_number: 9999, name: 'Synthetic Board' }).returning('id');
  return made.id;
}

const outlets: SyntheticKind = {
  order: 10,
  max: MAX,
  help: 'outlets SYN-O-000001… of the first board, each linked to one active store',
  async seed(db, count) {
    const board = await firstBoardId(db);
    return inBatches(count, async (from, to) => {
      const r = await db.raw(
        `INSERT INTO outlets (outlet_code, name, city, state, board_id, active)
         SELECT 'SYN-O-' || lpad(g::text, 6, '0'),
                (${sqlArray(CITIES)})[1 + g % ${CITIES.length}] || ' ' || (${sqlArray(OUTLET_KINDS)})[1 + (g / 7) % ${OUTLET_KINDS.length}] || ' ' || g,
                (${sqlArray(CITIES)})[1 + g % ${CITIES.length}], 'IA', ?::int, g % 50 <> 0
           FROM generate_series(?::int, ?::int) g
         ON CONFLICT (outlet_code) DO NOTHING`,
        [board, from, to],
      );
      await db.raw(
        `WITH s AS (SELECT array_agg(id ORDER BY id) AS ids FROM stores WHERE active)
         INSERT INTO store_outlets (store_id, outlet_id)
         SELECT s.ids[1 + (substring(o.outlet_code from 7)::int % cardinality(s.ids))], o.id
           FROM outlets o, s
          WHERE cardinality(s.ids) > 0 AND o.outlet_code BETWEEN 'SYN-O-' || lpad(?::text, 6, '0') AND 'SYN-O-' || lpad(?::text, 6, '0')
         ON CONFLICT DO NOTHING`,
        [from, to],
      );
      return r.rowCount ?? 0;
    });
  },
};

const users: SyntheticKind = {
  order: 20,
  max: MAX,
  help: 'users syn-user-000001@example.com… with profiles and grants at the synthetic outlets (else any outlets), stores and boards',
  async seed(db, count, ctx) {
    const places = await db.raw(`SELECT
        (SELECT array_agg(id ORDER BY id) FROM outlets WHERE outlet_code LIKE 'SYN-O-%') AS syn,
        (SELECT array_agg(id ORDER BY id) FROM outlets WHERE NOT is_admin_outlet) AS outlets,
        (SELECT array_agg(id ORDER BY id) FROM stores WHERE active) AS stores,
        (SELECT array_agg(id ORDER BY board_number) FROM boards) AS boards`);
    const p = places.rows[0] as { syn: number[] | null; outlets: number[] | null; stores: number[] | null; boards: number[] | null };
    const outletIds = p.syn ?? p.outlets;
    if (!outletIds?.length) throw new SyntheticError('users need outlets to be granted at: add outlets=N (e.g. outlets=10000)');
    if (!p.syn) ctx.log('  no synthetic outlets: granting at the existing outlets');
    const storeIds = p.stores?.length ? p.stores : null;
    const boardIds = p.boards ?? [];
    const role = new Map<string, number>((await db('roles').select('id', 'code')).map((r) => [r.code, r.id]));
    const r = (code: string) => {
      const id = role.get(code);
      if (!id) throw new SyntheticError(`role ${code} is missing: run npm run db:seed first`);
      return id;
    };
    const num = `substring(u.email from 'syn-user-([0-9]+)@')::int`;
    // One hash of a random password nobody knows, shared by every synthetic user (nobody signs in as them).
    const unusable = await bcrypt.hash(randomBytes(24).toString('hex'), 4);
    return inBatches(count, async (from, to) => {
      const email = (g: string) => `'syn-user-' || lpad(${g}::text, 6, '0') || '@example.com'`;
      const ins = await db.raw(
        `INSERT INTO users (email, password_hash, is_active, last_login_at)
         SELECT ${email('g')}, ?::text, g % 20 <> 0,
                CASE WHEN g % 7 = 0 THEN NULL
                     ELSE now() - make_interval(days => g % 365, mins => (g * 37) % 1440) END
           FROM generate_series(?::int, ?::int) g
         ON CONFLICT (email) DO NOTHING`,
        [unusable, from, to],
      );
      const range = `u.email BETWEEN ${email('?')} AND ${email('?')} AND u.email LIKE 'syn-user-%'`;
      await db.raw(
        `INSERT INTO user_profiles (user_id, first_name, last_name, full_name)
         SELECT u.id, f, l, f || ' ' || l FROM (
           SELECT u.id, (${sqlArray(FIRST_NAMES)})[1 + ${num} % ${FIRST_NAMES.length}] AS f,
                  (${sqlArray(LAST_NAMES)})[1 + (${num} / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}] || ' ' || ${num} AS l
             FROM users u WHERE ${range}) u
         ON CONFLICT (user_id) DO NOTHING`,
        [from, to],
      );
      // One grant per user by their number (see the module's note), then a second outlet for every tenth buyer.
      await db.raw(
        `INSERT INTO role_grants (user_id, role_id, scope_type, board_id, store_id, outlet_id)
         SELECT x.id, x.role_id, x.scope_type,
                CASE WHEN x.scope_type = 'board' THEN (?::int[])[1 + x.n % cardinality(?::int[])] END,
                CASE WHEN x.scope_type = 'store' THEN (?::int[])[1 + x.n % cardinality(?::int[])] END,
                CASE WHEN x.scope_type = 'outlet' THEN (?::int[])[1 + x.n % cardinality(?::int[])] END
           FROM (SELECT u.id, n,
                   CASE WHEN n % 100 = 0 AND ?::boolean THEN ?::int WHEN n % 100 < 5 AND ?::boolean THEN ?::int
                        WHEN n % 100 < 10 AND ?::boolean THEN ?::int
                        WHEN n % 100 < 20 THEN ?::int WHEN n % 100 < 70 THEN ?::int ELSE ?::int END AS role_id,
                   CASE WHEN n % 100 = 0 AND ?::boolean THEN 'board' WHEN n % 100 < 10 AND ?::boolean THEN 'store' ELSE 'outlet' END AS scope_type
                   FROM (SELECT u.id, ${num} AS n FROM users u WHERE ${range}) u) x
          WHERE NOT EXISTS (SELECT 1 FROM role_grants g WHERE g.user_id = x.id)`,
        [
          boardIds.length ? boardIds : [0],
          boardIds.length ? boardIds : [0],
          storeIds ?? [0],
          storeIds ?? [0],
          outletIds,
          outletIds,
          boardIds.length > 0,
          r(ROLES.boardAdmin),
          Boolean(storeIds),
          r(ROLES.storeManager),
          Boolean(storeIds),
          r(ROLES.storeStaff),
          r(ROLES.outletManager),
          r(ROLES.outletBuyer),
          r(ROLES.outletViewer),
          boardIds.length > 0,
          Boolean(storeIds),
          from,
          to,
        ],
      );
      await db.raw(
        `INSERT INTO role_grants (user_id, role_id, scope_type, outlet_id)
         SELECT u.id, ?::int, 'outlet', (?::int[])[1 + (${num} * 7 + 3) % cardinality(?::int[])]
           FROM users u WHERE ${range} AND ${num} % 100 BETWEEN 20 AND 69 AND ${num} % 10 = 3
         ON CONFLICT DO NOTHING`,
        [r(ROLES.outletBuyer), outletIds, outletIds, from, to],
      );
      return ins.rowCount ?? 0;
    });
  },
};

/**
 * The kinds `--synthetic` accepts (`orders`: seeds/synthetic-orders.ts). Add one here: the parser, the help and the order
 * follow from the entry.
 */
export const SYNTHETIC_KINDS: Record<string, SyntheticKind> = { outlets, users, orders: syntheticOrders };

/** Parses "users=100000,outlets=10000" into counts by kind; a bad part → SyntheticError naming it. */
export function parseSyntheticSpec(spec: string, kinds: Record<string, SyntheticKind> = SYNTHETIC_KINDS): Record<string, number> {
  const out: Record<string, number> = {};
  const parts = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!parts.length)
    throw new SyntheticError(
      `--synthetic needs kind=count pairs, e.g. users=100000,outlets=10000 (kinds: ${Object.keys(kinds).join(', ')})`,
    );
  for (const part of parts) {
    const m = /^([a-z][a-z_-]*)=(\d{1,9})$/i.exec(part);
    if (!m) throw new SyntheticError(`--synthetic: "${part}" is not kind=count (e.g. users=100000)`);
    const [, kind, n] = m;
    const k = kinds[kind.toLowerCase()];
    if (!k) throw new SyntheticError(`--synthetic: unknown kind "${kind}" (kinds: ${Object.keys(kinds).join(', ')})`);
    const count = Number(n);
    if (count < 1 || count > k.max)
      throw new SyntheticError(`--synthetic: ${kind} must be from 1 to ${k.max.toLocaleString('en-US')} (got ${n})`);
    if (kind.toLowerCase() in out) throw new SyntheticError(`--synthetic: ${kind} is given twice`);
    out[kind.toLowerCase()] = count;
  }
  return out;
}

/**
 * Seeds the synthetic rows of each kind in `counts` (in the kinds' order), each kind in one transaction.
 * Refused (SyntheticError) when `production`. Runs VACUUM ANALYZE afterwards (the planner's sizes, the visibility map of index-only scans).
 */
export async function seedSynthetic(
  db: Knex,
  counts: Record<string, number>,
  opts: { production: boolean; log?: (line: string) => void; kinds?: Record<string, SyntheticKind> },
): Promise<SyntheticResult[]> {
  if (opts.production)
    throw new SyntheticError('db:seed --synthetic is refused when NODE_ENV=production: the synthetic users and outlets are fictitious');
  const kinds = opts.kinds ?? SYNTHETIC_KINDS;
  const log = opts.log ?? (() => undefined);
  const results: SyntheticResult[] = [];
  for (const [kind, count] of Object.entries(counts).sort(([a], [b]) => kinds[a].order - kinds[b].order)) {
    const t = Date.now();
    const created = await db.transaction((trx) => kinds[kind].seed(trx, count, { log }));
    results.push({ kind, requested: count, created, ms: Date.now() - t });
    log(
      `  ${kind}: ${created.toLocaleString('en-US')} created of ${count.toLocaleString('en-US')} (${((Date.now() - t) / 1000).toFixed(1)} s)`,
    );
  }
  // VACUUM too: the lists count through index-only scans, which need the visibility map.
  await db.raw('VACUUM ANALYZE');
  return results;
}
