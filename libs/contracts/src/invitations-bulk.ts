import { z } from 'zod';

/**
 * Bulk invitations from a CSV (issue 26 §3; ARCHITECTURE §5 "Administration at scale"): POST /invitations/bulk
 * with a text/csv body `email,first name,last name,role code,outlet codes` (outlet codes ';'-separated) or a
 * `store numbers` column for store-level roles. Each data row is checked as one invitation would be; `row` is the
 * row's line number in the file (the header is line 1), so a refusal names the line to fix.
 */
export const BULK_INVITE_MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  nameRequired: 'First and last name are required',
  roleRequired: 'A role code is required',
  unknownRole: (code: string) => `Role code "${code}" does not exist.`,
  unknownOutlet: (code: string) => `Outlet code "${code}" does not exist or is not active.`,
  unknownStore: (n: string) => `Store number "${n}" does not exist or is not active.`,
  duplicateEmail: (line: number) => `This email is already invited on line ${line} of the file.`,
  header:
    'The CSV header must name the columns email, first name, last name, role code and outlet codes (or store numbers), comma-separated, header first.',
  empty: 'The CSV holds no rows, only its header: add one row per person.',
  tooManyRows: (max: number) => `At most ${max} rows per file: split the file.`,
  tooLarge: (mb: number) => `The file is larger than ${mb} MB: split the file.`,
  mediaType: 'Send the file as text/csv.',
} as const;

/** Most data rows and bytes one bulk invitation file may hold. */
export const BULK_INVITE_MAX_ROWS = 5000;
export const BULK_INVITE_MAX_BYTES = 2 ** 20;

/** The CSV columns, as the header names them (case and spaces around are ignored). */
export const BULK_INVITE_COLUMNS = ['email', 'first name', 'last name', 'role code', 'outlet codes', 'store numbers'] as const;
/** A header to start from (the web dialog offers it as a template). */
export const BULK_INVITE_TEMPLATE = 'email,first name,last name,role code,outlet codes\n';

export const bulkInviteQuerySchema = z.strictObject({
  dryRun: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

/** One row's outcome: `ok` with the invitation (when sent), or the problem code and message of its refusal. */
export const bulkInviteRowResultSchema = z.object({
  row: z.number().int().describe('Line number in the file (the header is line 1)'),
  email: z.string(),
  ok: z.boolean(),
  code: z.string().optional(),
  message: z.string().optional(),
  invitationId: z.string().optional(),
});
export type BulkInviteRowResult = z.infer<typeof bulkInviteRowResultSchema>;

export const bulkInviteResultSchema = z.object({
  dryRun: z.boolean(),
  /** Rows that passed (dry run) or were sent. */
  okCount: z.number().int(),
  failedCount: z.number().int(),
  results: z.array(bulkInviteRowResultSchema),
});
export type BulkInviteResult = z.infer<typeof bulkInviteResultSchema>;
