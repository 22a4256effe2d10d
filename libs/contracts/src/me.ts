import { z } from 'zod';
import { optionalPhoneSchema } from './phone';
import { AUTH_MESSAGES, newPasswordSchema } from './auth';

/** Edit Profile body (spec 000 §2, §5): names required, phone optional (null when empty). */
export const updateProfileBodySchema = z.strictObject({
  firstName: z.string().trim().min(1, AUTH_MESSAGES.firstNameRequired).max(100),
  lastName: z.string().trim().min(1, AUTH_MESSAGES.lastNameRequired).max(100),
  phone: optionalPhoneSchema,
});
export type UpdateProfileBody = z.input<typeof updateProfileBodySchema>;

export const changePasswordBodySchema = z
  .strictObject({
    currentPassword: z.string().min(1, AUTH_MESSAGES.currentPasswordRequired),
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((b) => b.newPassword === b.confirmPassword, { message: AUTH_MESSAGES.passwordsDontMatch, path: ['confirmPassword'] });
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const profileSchema = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  fullName: z.string().nullable(),
  phone: z.string().nullable(),
  lastSelectedOutletId: z.number().int().nullable(),
  lastSelectedStoreId: z.number().int().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

/** The current user's processed role (spec 000 §3). */
export const myRoleSchema = z.object({
  id: z.string(),
  roleCode: z.string(),
  roleName: z.string().nullable(),
  description: z.string().nullable(),
  roleLevel: z.number().int(),
  /** Always empty: the spec's processed role carries an empty permissions list (use /me/permissions). */
  permissions: z.array(z.string()),
  /** Where the role is held (ARCHITECTURE §11) and at how many places (0 for a global grant). */
  scopeType: z.enum(['global', 'board', 'store', 'outlet']),
  scopeCount: z.number().int(),
});
export const myRolesSchema = z.object({ items: z.array(myRoleSchema) });
export type MyRole = z.infer<typeof myRoleSchema>;

export const meSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), isActive: z.boolean(), lastLoginAt: z.string().nullable() }),
  profile: profileSchema,
  roles: z.array(myRoleSchema),
  permissions: z.array(z.string()),
});
export type Me = z.infer<typeof meSchema>;

export const permissionCodesSchema = z.object({ codes: z.array(z.string()) });
export const permissionGrantedSchema = z.object({ granted: z.boolean() });

/** Accessible outlet record with board (spec 000 §3). */
export const myOutletSchema = z.object({
  outletId: z.number().int(),
  outletCode: z.string(),
  outletName: z.string(),
  isAdminOutlet: z.boolean(),
  outletActive: z.boolean(),
  outletCity: z.string().nullable(),
  outletState: z.string().nullable(),
  outletPhone: z.string().nullable(),
  outletEmail: z.string().nullable(),
  boardName: z.string().nullable(),
  defaultStoreId: z.number().int().nullable(),
  storeIds: z.array(z.number().int()),
  storeNames: z.array(z.string()),
  storeCodes: z.array(z.string()),
});
export type MyOutlet = z.infer<typeof myOutletSchema>;
export const myOutletsSchema = z.object({ items: z.array(myOutletSchema) });

/** `{code}` path parameter of GET /me/permissions/{code}. */
export const permissionCodeParamsSchema = z.strictObject({ code: z.string().min(1).max(100) });

/** A store as listed for an outlet (spec 000 §3 store record). `id` is the warehouse id. */
export const storeSummarySchema = z.object({
  id: z.number().int(),
  warehouseId: z.number().int(),
  name: z.string(),
  warehouseCode: z.string(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  phone: z.string().nullable(),
  boardNumber: z.number().int(),
  boardName: z.string().nullable(),
  active: z.boolean(),
});
export type StoreSummary = z.infer<typeof storeSummarySchema>;
export const outletStoresSchema = z.object({ items: z.array(storeSummarySchema) });
/** `{outletId}` path parameter of GET /outlets/{outletId}/stores. */
export const outletIdParamsSchema = z.strictObject({ outletId: z.coerce.number().int().positive() });

export const selectionSchema = z.object({ outletId: z.number().int().nullable(), storeId: z.number().int().nullable() });
export type Selection = z.infer<typeof selectionSchema>;
export const putSelectionBodySchema = z.strictObject({
  outletId: z.number().int().positive(),
  storeId: z.number().int().positive().nullable(),
});
export type PutSelectionBody = z.infer<typeof putSelectionBodySchema>;

export const requestableOutletSchema = z.object({
  outletId: z.number().int(),
  outletName: z.string(),
  outletCode: z.string(),
  boardName: z.string().nullable(),
});
export const requestableOutletsSchema = z.object({ items: z.array(requestableOutletSchema) });
export type RequestableOutlet = z.infer<typeof requestableOutletSchema>;

/** An outlet access request as created by POST /me/outlet-requests. */
export const outletRequestSchema = z.object({
  id: z.number().int(),
  outletId: z.number().int(),
  outletName: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  createdAt: z.string(),
});
export type OutletRequest = z.infer<typeof outletRequestSchema>;

/** Texts of the outlet request refusals (spec 000 §8). */
export const OUTLET_REQUEST_MESSAGES = {
  invalidOutlet: 'Please select a valid outlet.',
  alreadyAssigned: 'You already have access to this outlet.',
  alreadyRequested: 'You have already requested access to this outlet.',
} as const;

export const outletRequestBodySchema = z.strictObject({
  outletId: z
    .number({ error: OUTLET_REQUEST_MESSAGES.invalidOutlet })
    .int(OUTLET_REQUEST_MESSAGES.invalidOutlet)
    .positive(OUTLET_REQUEST_MESSAGES.invalidOutlet),
});
export type OutletRequestBody = z.infer<typeof outletRequestBodySchema>;
