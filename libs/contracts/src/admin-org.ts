import { z } from 'zod';
import { storeOrderingPatchSchema, storeOrderingSettingsSchema } from './ordering-schedule';
import { intIdSchema, pageOf } from './common';
import { SPLIT_CASE_POLICIES, quantityRuleInputSchema, quantityRuleSchema } from './quantity-rule';

/**
 * Administration II (spec 002 §2 Items, Outlets, Stores, Boards, Credentials; §3 entities, §5 validation,
 * ARCHITECTURE §5 "Administration"): request and answer shapes shared by the API and the SPA, with the spec's
 * messages verbatim. Data Synch's are in admin-imports.ts.
 */

/** Spec 002 §9: admin items page size. */
export const ADMIN_ITEMS_PAGE_SIZE = 20;

export const ADMIN_ORG_MESSAGES = {
  outletNameRequired: 'Outlet name is required',
  outletCodeRequired: 'Outlet code is required',
  stateExactly2: 'State must be exactly 2 letters (e.g., NY, CA)',
  stateLettersOnly: 'State must contain only letters (e.g., NY, CA)',
  storeNameRequired: 'Store name is required',
  warehouseCodeRequired: 'Warehouse code is required',
  boardRequired: 'Board selection is required',
  cityRequired: 'City is required',
  stateRequired: 'State is required',
  amountInvalid: 'Please enter a valid amount (e.g., 5 or 5.00)',
  amountNegative: 'Amount cannot be negative',
  invalidEmails: 'Invalid Email Addresses',
  boardNumberRequired: 'Board number is required',
  boardNameRequired: 'Board name is required',
  credentialRequired: 'Please fill in all required fields',
  storeModifyDenied: "Access Denied: You don't have permission to modify store settings",
  storeViewDenied: "Access Denied: You don't have permission to view store management.",
  itemsViewDenied: "You don't have permission to view items. Please contact your administrator.",
  testMonetraOnly: 'Testing is only available for Monetra credentials',
  decryptionFailed: 'Decryption failed',
} as const;
const M = ADMIN_ORG_MESSAGES;

const trimmed = (required: string) => z.string({ error: required }).trim().min(1, required);
const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

/** A delivery charge or price: "5", "5.0", "5.00" (≥ 0, at most 2 decimals); empty means 0. Numbers accepted too. */
export const amountInputSchema = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const s = String(v).trim();
  if (s === '') return '0.00';
  if (/^-\s*\d/.test(s)) {
    ctx.addIssue({ code: 'custom', message: M.amountNegative });
    return z.NEVER;
  }
  if (!/^\d+(\.\d{1,2})?$/.test(s) || Number(s) > 9_999_999_999.99) {
    ctx.addIssue({ code: 'custom', message: M.amountInvalid });
    return z.NEVER;
  }
  return Number(s).toFixed(2);
});

/**
 * The store form's cc emails (spec 002 §5): semicolon-separated, each a valid address, no commas and no
 * space before a semicolon; a space after one is allowed. Empty → null.
 */
export function ccEmailsProblem(value: string): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  if (v.includes(',') || /\s;/.test(v)) return M.invalidEmails;
  const parts = v.split(';').map((p) => p.trim());
  if (parts.at(-1) === '') parts.pop();
  const email = z.email();
  if (!parts.length || parts.some((p) => !email.safeParse(p).success)) return M.invalidEmails;
  return undefined;
}
export const ccEmailsSchema = z
  .string()
  .nullish()
  .transform((v, ctx) => {
    const s = (v ?? '').trim();
    const problem = ccEmailsProblem(s);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return s ? s.replace(/;\s*$/, '') : null;
  });

/** A two-letter state, upper-cased (spec 002 §5 Outlet). Optional: empty → null. */
export const outletStateSchema = z
  .string()
  .nullish()
  .transform((v, ctx) => {
    const s = (v ?? '').trim().toUpperCase();
    if (!s) return null;
    if (!/^[A-Z]+$/.test(s)) {
      ctx.addIssue({ code: 'custom', message: M.stateLettersOnly });
      return z.NEVER;
    }
    if (s.length !== 2) {
      ctx.addIssue({ code: 'custom', message: M.stateExactly2 });
      return z.NEVER;
    }
    return s;
  });
const storeStateSchema = z.string({ error: M.stateRequired }).transform((v, ctx) => {
  const s = v.trim().toUpperCase();
  if (!s) {
    ctx.addIssue({ code: 'custom', message: M.stateRequired });
    return z.NEVER;
  }
  if (!/^[A-Z]+$/.test(s)) {
    ctx.addIssue({ code: 'custom', message: M.stateLettersOnly });
    return z.NEVER;
  }
  if (s.length !== 2) {
    ctx.addIssue({ code: 'custom', message: M.stateExactly2 });
    return z.NEVER;
  }
  return s;
});

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

// ─── Items ───────────────────────────────────────────────────────────────────────────────────────
export const adminItemsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(ADMIN_ITEMS_PAGE_SIZE),
  search: z.string().trim().max(100).optional(),
  active: booleanQuery.optional(),
});
export type AdminItemsQuery = z.infer<typeof adminItemsQuerySchema>;

export const adminItemSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  category: z.string().nullable(),
  retail: z.string(),
  bottleSizeId: z.number().int().nullable(),
  bottleSize: z.string().nullable(),
  bottlesPerCase: z.number().int().nullable(),
  /** The item's own quantity rule (issue 27); null when it has none (min 1, no max, increment 1). */
  quantityRule: quantityRuleSchema.nullable(),
  active: z.boolean(),
  boardId: z.number().int(),
  boardNumber: z.number().int(),
  storeCount: z.number().int(),
});
export type AdminItem = z.infer<typeof adminItemSchema>;
export const adminItemPageSchema = pageOf(adminItemSchema);

export const updateItemBodySchema = z.strictObject({
  name: trimmed('Item name is required').pipe(z.string().max(300)).optional(),
  category: optionalText(100),
  retail: amountInputSchema.optional(),
  active: z.boolean().optional(),
  /** The item's quantity rule (issue 27); null removes it. */
  quantityRule: quantityRuleInputSchema.nullable().optional(),
});
export type UpdateItemBody = z.input<typeof updateItemBodySchema>;

// ─── Boards ──────────────────────────────────────────────────────────────────────────────────────
export const adminBoardSchema = z.object({
  id: z.number().int(),
  boardNumber: z.number().int(),
  name: z.string(),
  isActive: z.boolean(),
  activeStoreCount: z.number().int(),
});
export type AdminBoard = z.infer<typeof adminBoardSchema>;
export const adminBoardListSchema = z.object({ items: z.array(adminBoardSchema) });

const boardNumber = z.union([z.number(), z.string()], { error: M.boardNumberRequired }).transform((v, ctx) => {
  const s = String(v).trim();
  if (!s) {
    ctx.addIssue({ code: 'custom', message: M.boardNumberRequired });
    return z.NEVER;
  }
  if (!/^\d{1,9}$/.test(s) || Number(s) < 1) {
    ctx.addIssue({ code: 'custom', message: 'Board number must be a positive whole number' });
    return z.NEVER;
  }
  return Number(s);
});
export const createBoardBodySchema = z.strictObject({
  boardNumber,
  name: trimmed(M.boardNameRequired).pipe(z.string().max(200)),
  isActive: z.boolean().optional(),
});
export const updateBoardBodySchema = createBoardBodySchema.partial();
export type BoardBody = z.input<typeof createBoardBodySchema>;

// ─── Outlets ─────────────────────────────────────────────────────────────────────────────────────
export const adminOutletSchema = z.object({
  id: z.number().int(),
  outletCode: z.string(),
  name: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  active: z.boolean(),
  isAdminOutlet: z.boolean(),
  defaultStoreId: z.number().int().nullable(),
  boardId: z.number().int().nullable(),
  boardName: z.string().nullable(),
  storeIds: z.array(z.number().int()),
  storeNames: z.array(z.string()),
});
export type AdminOutlet = z.infer<typeof adminOutletSchema>;
export const adminOutletPageSchema = pageOf(adminOutletSchema);
export const adminOutletsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(100).optional(),
});

export const createOutletBodySchema = z.strictObject({
  name: trimmed(M.outletNameRequired).pipe(z.string().max(200)),
  outletCode: trimmed(M.outletCodeRequired).pipe(z.string().max(50)),
  city: optionalText(100),
  state: outletStateSchema,
  active: z.boolean().optional(),
  boardId: z.number({ error: M.boardRequired }).int().positive(),
  defaultStoreId: z.number().int().positive().nullish(),
});
export const updateOutletBodySchema = createOutletBodySchema.partial();
export type OutletBody = z.input<typeof createOutletBodySchema>;

// ─── Stores ──────────────────────────────────────────────────────────────────────────────────────
export const adminStoreSchema = z.object({
  id: z.number().int(),
  warehouseId: z.number().int(),
  warehouseCode: z.string(),
  name: z.string(),
  boardId: z.number().int(),
  boardNumber: z.number().int(),
  boardName: z.string(),
  /** Split cases (issue 27): the policy and the fee per bottle of an incomplete case under split_fee. */
  splitCasePolicy: z.enum(SPLIT_CASE_POLICIES),
  splitCaseFee: z.string(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  phone: z.string().nullable(),
  latitude: z.string().nullable(),
  longitude: z.string().nullable(),
  active: z.boolean(),
  isWarehouse: z.boolean(),
  deliveryEnabled: z.boolean(),
  deliveryCharge: z.string(),
  orderconfCcemails: z.string().nullable(),
  /** False when the store has no payment credentials (the Settings tab warns). */
  hasPaymentCredentials: z.boolean(),
  outletCount: z.number().int(),
  // Ordering settings (issue 28, ordering-schedule.ts): on GET /admin/stores/{id} and the PATCH answer.
  ...storeOrderingSettingsSchema.partial().shape,
});
export type AdminStore = z.infer<typeof adminStoreSchema>;
export const adminStorePageSchema = pageOf(adminStoreSchema);
export const adminStoresQuerySchema = adminOutletsQuerySchema.extend({ active: booleanQuery.optional() });

const coordinate = (min: number, max: number) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v, ctx) => {
      const s = v === null || v === undefined ? '' : String(v).trim();
      if (!s) return null;
      if (!/^-?\d+(\.\d+)?$/.test(s) || Number(s) < min || Number(s) > max) {
        ctx.addIssue({ code: 'custom', message: `Enter a number from ${min} to ${max}` });
        return z.NEVER;
      }
      return s;
    });
export const createStoreBodySchema = z.strictObject({
  /** The warehouse system's store number; the next free one when left out. */
  warehouseId: z.number().int().positive().max(2_000_000_000).optional(),
  name: trimmed(M.storeNameRequired).pipe(z.string().max(200)),
  warehouseCode: trimmed(M.warehouseCodeRequired).pipe(z.string().max(50)),
  /** Split cases (issue 27): any | full_cases | split_fee, and the fee per bottle ("0.50"). */
  splitCasePolicy: z.enum(SPLIT_CASE_POLICIES).optional(),
  splitCaseFee: amountInputSchema.optional(),
  boardId: z.number({ error: M.boardRequired }).int().positive(M.boardRequired),
  address: optionalText(200),
  city: trimmed(M.cityRequired).pipe(z.string().max(100)),
  state: storeStateSchema,
  zipCode: optionalText(10),
  phone: optionalText(30),
  latitude: coordinate(-90, 90),
  longitude: coordinate(-180, 180),
  active: z.boolean().optional(),
  deliveryEnabled: z.boolean().optional(),
  deliveryCharge: amountInputSchema.optional(),
  orderconfCcemails: ccEmailsSchema.optional(),
});
/** PATCH /admin/stores/{id}: any store field, and the ordering settings (issue 28: schedule, minimums, emergency orders). */
export const updateStoreBodySchema = createStoreBodySchema.omit({ warehouseId: true }).partial().extend(storeOrderingPatchSchema.shape);
export type StoreBody = z.input<typeof createStoreBodySchema>;

export const storeOutletSchema = z.object({
  outletId: z.number().int(),
  outletCode: z.string(),
  outletName: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  active: z.boolean(),
});
export const storeOutletListSchema = z.object({ items: z.array(storeOutletSchema) });
export const storeOutletParamsSchema = z.object({ storeId: intIdSchema, outletId: intIdSchema });

// ─── Payment credentials ─────────────────────────────────────────────────────────────────────────
export const APP_CODES = ['BCC', 'IMS'] as const;
export const CREDENTIAL_ENVIRONMENTS = ['test', 'prod'] as const;
export const CREDENTIAL_TYPES = ['Monetra', 'Stripe', 'PayPal'] as const;

export const paymentCredentialSchema = z.object({
  id: z.number().int(),
  storeId: z.number().int(),
  storeName: z.string(),
  appCode: z.enum(APP_CODES),
  environment: z.enum(CREDENTIAL_ENVIRONMENTS),
  credentialType: z.enum(CREDENTIAL_TYPES),
  dekSecretName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type PaymentCredential = z.infer<typeof paymentCredentialSchema>;
export const paymentCredentialListSchema = z.object({ items: z.array(paymentCredentialSchema) });

/** The gateway's fields (e.g. Monetra username and password): a flat JSON object of short values. */
export const credentialPayloadSchema = z
  .record(z.string().min(1).max(100), z.union([z.string().max(2000), z.number(), z.boolean()]))
  .refine((v) => Object.keys(v).length > 0 && Object.keys(v).length <= 50, M.credentialRequired);
const required = <T extends z.ZodType>(s: T) => s;
export const createCredentialBodySchema = z.strictObject({
  storeId: required(z.number({ error: M.credentialRequired }).int().positive()),
  appCode: z.enum(APP_CODES, { error: M.credentialRequired }),
  environment: z.enum(CREDENTIAL_ENVIRONMENTS, { error: M.credentialRequired }),
  credentialType: z.enum(CREDENTIAL_TYPES, { error: M.credentialRequired }),
  dekSecretName: trimmed(M.credentialRequired).pipe(z.string().max(200)),
  payload: credentialPayloadSchema,
});
export const updateCredentialBodySchema = createCredentialBodySchema.partial();
export type CredentialBody = z.input<typeof createCredentialBodySchema>;
export const revealCredentialBodySchema = z.strictObject({ currentPassword: z.string().max(200).optional() });
export const revealedCredentialSchema = z.object({ payload: z.record(z.string(), z.unknown()) });
export const credentialTestResultSchema = z.object({ success: z.boolean(), message: z.string() });
