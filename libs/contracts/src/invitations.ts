import { z } from 'zod';
import { optionalPhoneSchema } from './phone';
import { AUTH_MESSAGES, newPasswordSchema } from './auth';
import { pageOf } from './common';
import { scopeTypeSchema } from './grants';

/**
 * Invitations and onboarding (spec 000 §2, §5, §8 and spec 002 §2, §4, §5, §8; ARCHITECTURE §5).
 * Texts are the specs' own where they give them; the invalid-link texts complete the spec's ellipses.
 */
export const INVITATION_MESSAGES = {
  invalidEmailTitle: 'Invalid Email',
  invalidEmail: 'Please enter a valid email address',
  missingInfoTitle: 'Missing Information',
  missingInfo: 'Please fill in all required fields and select at least one role.',
  outletRequiredTitle: 'Outlet Required',
  outletRequired: 'Please select at least one outlet for this user.',
  outletHint: 'At least one outlet must be selected to send an invitation.',
  selectRolesFirst: 'Select user roles to see available outlets.',
  noOutletsForRoles: 'No outlets available for the selected role permissions.',
  noAccessibleOutlets: 'No accessible outlets found for your account.',
  loadingOutlets: 'Loading outlets...',
  failedOutlets: 'Failed to load outlets.',
  adminOutletLabel: 'System Default - Optional',
  sentTitle: 'Invitation Sent',
  sent: (email: string) => `Invitation has been sent to ${email}`,
  failed: 'Failed to send invitation. Please try again.',
  // The acceptance page (spec 002 §8).
  invalidLink: 'Invalid invitation link. Please check the link in your email or ask for a new invitation.',
  notFound: 'Invitation not found. It may have been replaced by a newer invitation; please use the latest email you received.',
  expired: 'This invitation has expired. Please ask the person who invited you to send a new one.',
  used: 'This invitation has already been used. Please sign in with your account.',
  revoked: 'This invitation has been withdrawn. Please ask the person who invited you to send a new one.',
  failedLoad: 'Failed to load invitation. Please try again.',
  passwordRequired: 'Password is required',
  roleNotGrantable: (name: string) => `You may not grant the role ${name}.`,
  outletNotGrantable: (name: string) => `You may not invite users to the outlet ${name}.`,
  unknownRole: (id: number) => `Role ${id} does not exist.`,
  unknownOutlet: (id: number) => `Outlet ${id} does not exist or is not active.`,
  notPending: 'This invitation is no longer pending.',
} as const;

/** How long an invitation link works (ARCHITECTURE §5): 7 days. */
export const INVITATION_TTL_DAYS = 7;

/** The spec's simple email pattern (text, @, text, dot, text). */
export const INVITATION_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const requiredName = z.string({ error: INVITATION_MESSAGES.missingInfo }).trim().min(1, INVITATION_MESSAGES.missingInfo).max(100);
const ids = (message: string) =>
  z
    .array(z.number({ error: message }).int().positive(), { error: message })
    .min(1, message)
    .max(50);

const scopeIds = z
  .array(z.number().int().positive())
  .max(500)
  .default([])
  .transform((a) => [...new Set(a)]);

/**
 * POST /invitations (spec 000 §3 payload, §5 rules; ARCHITECTURE §11): email, names, at least one role, and
 * where each role is held — outlet roles at `outletIds`, store roles at `storeIds`, board roles at `boardIds`
 * (the service refuses a role without a place of its kind: 422, "Please select at least one outlet…").
 */
export const createInvitationBodySchema = z.strictObject({
  email: z
    .string({ error: INVITATION_MESSAGES.invalidEmail })
    .trim()
    .toLowerCase()
    .max(254)
    .regex(INVITATION_EMAIL_PATTERN, INVITATION_MESSAGES.invalidEmail)
    .pipe(z.email(INVITATION_MESSAGES.invalidEmail)),
  firstName: requiredName,
  lastName: requiredName,
  roleIds: ids(INVITATION_MESSAGES.missingInfo).transform((a) => [...new Set(a)]),
  outletIds: scopeIds,
  storeIds: scopeIds,
  boardIds: scopeIds,
});
export type CreateInvitationBody = z.input<typeof createInvitationBodySchema>;

export const createdInvitationSchema = z.object({ id: z.string(), email: z.string(), expiresAt: z.string() });
export type CreatedInvitation = z.infer<typeof createdInvitationSchema>;

/** A role the caller may grant; `grantsAdminOutlet`: holders may be given the system admin outlet (spec 000 §5). */
export const grantableRoleSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  level: z.number().int(),
  grantsAdminOutlet: z.boolean(),
  /** Where the role is held (ARCHITECTURE §11): the dialog offers outlets, stores or boards accordingly. */
  scopeType: scopeTypeSchema,
});
export const grantableOutletSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  isAdminOutlet: z.boolean(),
  boardName: z.string().nullable(),
  city: z.string().nullable(),
});
export const grantableStoreSchema = z.object({
  id: z.number().int(),
  warehouseCode: z.string(),
  name: z.string(),
  city: z.string().nullable(),
  boardName: z.string().nullable(),
});
export const grantableBoardSchema = z.object({ id: z.number().int(), boardNumber: z.number().int(), name: z.string() });
/** GET /invitations/options: what the caller may grant, and where (ARCHITECTURE §5, §11). */
export const invitationOptionsSchema = z.object({
  roles: z.array(grantableRoleSchema),
  outlets: z.array(grantableOutletSchema),
  stores: z.array(grantableStoreSchema),
  boards: z.array(grantableBoardSchema),
});
export type GrantableStore = z.infer<typeof grantableStoreSchema>;
export type GrantableBoard = z.infer<typeof grantableBoardSchema>;
export type GrantableRole = z.infer<typeof grantableRoleSchema>;
export type GrantableOutlet = z.infer<typeof grantableOutletSchema>;
export type InvitationOptions = z.infer<typeof invitationOptionsSchema>;

/** `{token}` of the public invitation routes (32 random bytes, base64url). */
export const invitationTokenParamsSchema = z.strictObject({ token: z.string().min(1).max(200) });

/** GET /invitations/{token} (public, read-only). */
export const publicInvitationSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  roleLabels: z.array(z.string()),
  outletLabels: z.array(z.string()),
  /** Stores and boards of store- and board-level roles (empty otherwise). */
  storeLabels: z.array(z.string()),
  boardLabels: z.array(z.string()),
  userExists: z.boolean(),
  expiresAt: z.string(),
});
export type PublicInvitation = z.infer<typeof publicInvitationSchema>;

/**
 * POST /invitations/{token}/accept (spec 002 §5): names required, phone optional; a password with its
 * confirmation for a new account (the server requires it when the email has no account yet).
 */
export const acceptInvitationBodySchema = z
  .strictObject({
    firstName: z.string().trim().min(1, AUTH_MESSAGES.firstNameRequired).max(100),
    lastName: z.string().trim().min(1, AUTH_MESSAGES.lastNameRequired).max(100),
    phone: optionalPhoneSchema,
    password: newPasswordSchema.optional(),
    confirmPassword: z.string().max(200).optional(),
  })
  .refine((b) => b.password === undefined || b.password === b.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type AcceptInvitationBody = z.input<typeof acceptInvitationBodySchema>;

/** The acceptance form of a new user (password required), for the web form. */
export const acceptNewUserFormSchema = z
  .object({
    firstName: z.string().trim().min(1, AUTH_MESSAGES.firstNameRequired).max(100),
    lastName: z.string().trim().min(1, AUTH_MESSAGES.lastNameRequired).max(100),
    phone: z.string().trim().max(30).optional(),
    password: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((b) => b.password === b.confirmPassword, { message: AUTH_MESSAGES.passwordsDontMatch, path: ['confirmPassword'] });
/** The acceptance form of an existing user (no password). */
export const acceptExistingUserFormSchema = z.object({
  firstName: z.string().trim().min(1, AUTH_MESSAGES.firstNameRequired).max(100),
  lastName: z.string().trim().min(1, AUTH_MESSAGES.lastNameRequired).max(100),
  phone: z.string().trim().max(30).optional(),
});

export const acceptInvitationResultSchema = z.object({ userId: z.string(), isNewUser: z.boolean() });
export type AcceptInvitationResult = z.infer<typeof acceptInvitationResultSchema>;

export const INVITATION_STATUSES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** An invitation in the admin list (GET /admin/invitations). */
export const adminInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: z.enum(INVITATION_STATUSES),
  roleLabels: z.array(z.string()),
  outletLabels: z.array(z.string()),
  storeLabels: z.array(z.string()),
  invitedByEmail: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type AdminInvitation = z.infer<typeof adminInvitationSchema>;
export const adminInvitationsQuerySchema = z.strictObject({
  status: z.enum(INVITATION_STATUSES).optional(),
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const adminInvitationsPageSchema = pageOf(adminInvitationSchema);
export const invitationIdParamsSchema = z.strictObject({ id: z.uuid() });
export const resentInvitationSchema = createdInvitationSchema;

export const OUTLET_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
/** An outlet access request as administrators see it (GET /admin/outlet-requests). */
export const adminOutletRequestSchema = z.object({
  id: z.number().int(),
  status: z.enum(OUTLET_REQUEST_STATUSES),
  userId: z.string(),
  userEmail: z.string(),
  userName: z.string().nullable(),
  outletId: z.number().int(),
  outletName: z.string(),
  outletCode: z.string(),
  boardName: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedByEmail: z.string().nullable(),
  reason: z.string().nullable(),
});
export type AdminOutletRequest = z.infer<typeof adminOutletRequestSchema>;
export const adminOutletRequestsQuerySchema = z.strictObject({
  status: z.enum(OUTLET_REQUEST_STATUSES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const adminOutletRequestsPageSchema = pageOf(adminOutletRequestSchema);
export const outletRequestIdParamsSchema = z.strictObject({ id: z.coerce.number().int().positive() });
/**
 * POST /admin/outlet-requests/{id}/approve: the role granted at the requested outlet (an outlet-level role
 * below the approver's level there); without one, the least privileged outlet role (Outlet Viewer).
 */
export const approveOutletRequestBodySchema = z.strictObject({ roleId: z.number().int().positive().optional() });
export type ApproveOutletRequestBody = z.input<typeof approveOutletRequestBodySchema>;
export const rejectOutletRequestBodySchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((r) => r || undefined),
});
export type RejectOutletRequestBody = z.input<typeof rejectOutletRequestBodySchema>;
