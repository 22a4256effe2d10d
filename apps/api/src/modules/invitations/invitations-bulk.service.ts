import { CsvError, parse } from 'csv-parse/sync';
import {
  BULK_INVITE_MAX_ROWS,
  BULK_INVITE_MESSAGES as M,
  PROBLEM_CODES,
  createInvitationBodySchema,
  type BulkInviteResult,
  type BulkInviteRowResult,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import { AppError, BadRequestError, PayloadTooLargeError } from '../../http/errors';
import { errorMessage } from '../../lib/errors';
import type { Actor } from '../access/access.service';
import * as placesRepo from './roles-places.repository';
import { checkInvitation, createInvitation, type CheckedInvitation, type CreateInvitationInput } from './invitations.service';
import type { InvitationMeta } from './invitation-common';

/**
 * Bulk invitations from a CSV (issue 26 §3; ARCHITECTURE §5 "Administration at scale"). Each data row is one
 * invitation, checked exactly as POST /invitations checks one (email, names, role and places exist, the caller may
 * grant the role there, no invitation to oneself: ARCHITECTURE §11) plus "no email twice in the file". A dry run
 * writes and mails nothing; otherwise each valid row is created and mailed on its own (one row's refusal never
 * stops the others). `row` is the line number in the file (the header is line 1).
 */

/** A data row as read: its line and its cells by column (header names lower-cased and trimmed). */
interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

const COLUMN_ALIASES: Record<string, string> = {
  email: 'email',
  'email address': 'email',
  'first name': 'first name',
  firstname: 'first name',
  'last name': 'last name',
  lastname: 'last name',
  'role code': 'role code',
  role: 'role code',
  rolecode: 'role code',
  'outlet codes': 'outlet codes',
  'outlet code': 'outlet codes',
  outletcodes: 'outlet codes',
  'store numbers': 'store numbers',
  'store number': 'store numbers',
  storenumbers: 'store numbers',
};
const REQUIRED = ['email', 'first name', 'last name', 'role code'];

/** The file's data rows with their line numbers. 400 csv_header_unknown, 400 bulk_body_empty, 413 over the row cap. */
export function readInvitationCsv(text: string): CsvRow[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      info: true,
    }) as unknown as typeof records;
  } catch (err) {
    throw new BadRequestError(`The CSV cannot be read: ${err instanceof CsvError ? err.message : errorMessage(err)}`);
  }
  const [head, ...data] = records;
  const columns = (head?.record ?? []).map(
    (h) =>
      COLUMN_ALIASES[
        h
          .trim()
          .toLowerCase()
          .replace(/[_\s]+/g, ' ')
      ] ?? h.trim().toLowerCase(),
  );
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (!head || missing.length || (!columns.includes('outlet codes') && !columns.includes('store numbers')))
    throw new BadRequestError(
      M.header,
      missing.map((c) => ({ path: `header.${c}`, message: `No column "${c}"` })),
      PROBLEM_CODES.csvHeaderUnknown,
    );
  if (!data.length) throw new BadRequestError(M.empty, undefined, PROBLEM_CODES.bulkBodyEmpty);
  if (data.length > BULK_INVITE_MAX_ROWS) throw new PayloadTooLargeError(M.tooManyRows(BULK_INVITE_MAX_ROWS));
  return data.map(({ record, info }) => ({
    line: info.lines,
    cells: Object.fromEntries(columns.map((c, i) => [c, record[i] ?? ''])),
  }));
}

const list = (cell: string | undefined) =>
  (cell ?? '')
    .split(/[;|]/)
    .map((x) => x.trim())
    .filter(Boolean);

/** Codes, numbers and roles named anywhere in the file, looked up once. */
async function lookups(ctx: AppContext, rows: CsvRow[]) {
  const roleCodes = [...new Set(rows.map((r) => r.cells['role code']).filter(Boolean))];
  const outletCodes = [...new Set(rows.flatMap((r) => list(r.cells['outlet codes'])))];
  const storeNumbers = [...new Set(rows.flatMap((r) => list(r.cells['store numbers'])).filter((n) => /^\d{1,9}$/.test(n)))].map(Number);
  const [roles, outlets, stores] = await Promise.all([
    placesRepo.roleIdsByCodes(ctx.db, roleCodes),
    placesRepo.activeOutletIdsByCodes(ctx.db, outletCodes),
    placesRepo.activeStoreNumbers(ctx.db, storeNumbers),
  ]);
  return { roles, outlets, stores };
}

type Refusal = { code: string; message: string };
const refused = (code: string, message: string): Refusal => ({ code, message });

/** One row → the POST /invitations input, or the refusal of a code that does not exist or a malformed cell. */
function inputOf(row: CsvRow, found: Awaited<ReturnType<typeof lookups>>): CreateInvitationInput | Refusal {
  const c = row.cells;
  const roleCode = c['role code'];
  if (!roleCode) return refused(PROBLEM_CODES.validationFailed, M.roleRequired);
  const roleId = found.roles.get(roleCode);
  if (roleId === undefined) return refused(PROBLEM_CODES.validationFailed, M.unknownRole(roleCode));
  const outletIds: number[] = [];
  for (const code of list(c['outlet codes'])) {
    const id = found.outlets.get(code);
    if (id === undefined) return refused(PROBLEM_CODES.validationFailed, M.unknownOutlet(code));
    outletIds.push(id);
  }
  const storeIds: number[] = [];
  for (const n of list(c['store numbers'])) {
    if (!found.stores.has(Number(n)) || !/^\d{1,9}$/.test(n)) return refused(PROBLEM_CODES.validationFailed, M.unknownStore(n));
    storeIds.push(Number(n));
  }
  const parsed = createInvitationBodySchema.safeParse({
    email: c.email,
    firstName: c['first name'],
    lastName: c['last name'],
    roleIds: [roleId],
    outletIds,
    storeIds,
  });
  if (!parsed.success) return refused(PROBLEM_CODES.validationFailed, parsed.error.issues[0]?.message ?? M.invalidEmail);
  return parsed.data;
}

const refusalOf = (err: unknown): Refusal => {
  if (err instanceof AppError && err.status < 500) return refused(err.code, err.message);
  throw err;
};

/**
 * POST /invitations/bulk: checks every row of `csvText` and, unless `dryRun`, creates and mails the valid ones.
 * Returns each row's outcome in file order. Throws 400 for an unreadable file or header, 413 over the row cap.
 */
export async function bulkInvite(
  ctx: AppContext,
  actor: Actor,
  csvText: string,
  opts: { dryRun: boolean; meta: InvitationMeta },
): Promise<BulkInviteResult> {
  const rows = readInvitationCsv(csvText);
  const found = await lookups(ctx, rows);
  // The check depends on the roles and places and on whether the address is the caller's own (§11 no self grant):
  // rows alike are checked once (a file of 5,000 people at the same outlet is one check).
  const checks = new Map<string, Promise<CheckedInvitation>>();
  const check = (input: CreateInvitationInput) => {
    const self = input.email === actor.email.toLowerCase();
    const key = JSON.stringify([input.roleIds, input.outletIds, input.storeIds ?? [], self]);
    if (!checks.has(key)) checks.set(key, checkInvitation(ctx.db, actor, input));
    return checks.get(key)!;
  };
  const firstLine = new Map<string, number>();
  const results: BulkInviteRowResult[] = [];
  for (const row of rows) {
    const email = (row.cells.email ?? '').trim().toLowerCase();
    const input = inputOf(row, found);
    let outcome: Refusal | { invitationId?: string } | undefined;
    const seen = firstLine.get(email);
    if (seen !== undefined && email) outcome = refused(PROBLEM_CODES.validationFailed, M.duplicateEmail(seen));
    else if ('code' in input) outcome = input;
    else {
      firstLine.set(email, row.line);
      try {
        const checked = await check(input);
        outcome = opts.dryRun ? {} : { invitationId: (await createInvitation(ctx, actor, input, opts.meta, checked)).id };
      } catch (err) {
        outcome = refusalOf(err);
      }
    }
    if (email && !firstLine.has(email)) firstLine.set(email, row.line);
    results.push('code' in outcome ? { row: row.line, email, ok: false, ...outcome } : { row: row.line, email, ok: true, ...outcome });
  }
  const okCount = results.filter((r) => r.ok).length;
  return { dryRun: opts.dryRun, okCount, failedCount: results.length - okCount, results };
}
