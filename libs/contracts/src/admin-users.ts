import { z } from 'zod';
import { optionalPhoneSchema } from './phone';
import { grantRefSchema, scopeTypeSchema } from './grants';

/**
 * Administration I (spec 002 §2 Users / Roles / Edit User, §4–§8; ARCHITECTURE §5 Administration, §9):
 * the scoped users list, Edit User (profile, outlets, roles), deletion, role permissions and the audit log.
 */

/** Texts of spec 002 the API and the SPA share verbatim. */
export const ADMIN_USER_MESSAGES = {
  loadingUser: 'Loading user data...',
  selfEdit: 'You cannot edit your own account settings. Only super administrators can edit their own accounts.',
  notEditable: "You don't have permission to edit this user. You need user management permissions for your assigned stores.",
  outletNotManageable: 'You do not have permission to modify this outlet assignment.',
  outletReadOnlyHint: 'You do not have permission to modify this outlet assignment',
  invalidRoleSelection: 'Invalid role selection: no valid role IDs found',
  firstNameRequired: 'First name is required',
  updated: 'User information updated successfully',
  deleted: 'User deleted successfully',
  deleteFailed: 'Failed to delete user',
  userIdRequired: 'User ID is required',
  sessionExpired: 'Authentication session expired. Please login again.',
  rolesLoadFailed: 'Failed to load role management data',
  permissionUpdateFailed: 'Failed to update permission',
  roleNotAssignable: 'You can only assign roles less privileged than your own.',
  roleImmutable: 'The super administrator role cannot be changed.',
  lastSuperAdmin: 'This is the last active super administrator; the portal would have no one left to administer it.',
  selfDelete: 'You cannot delete your own account.',
  selfDeactivate: 'You cannot deactivate your own account.',
  profileElsewhere:
    "This person also works at places you don't manage: their profile and active flag can only be changed by an administrator of every place they work.",
} as const;

/** Page size of the users list (spec 002 §9: 50 initially, 50 more per Load More). */
export const ADMIN_USERS_PAGE_SIZE = 50;

export const adminUsersQuerySchema = z.strictObject({
  search: z.string().trim().max(200).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(ADMIN_USERS_PAGE_SIZE),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

export const adminRoleRefSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  level: z.number().int(),
  /** Where the role is granted (ARCHITECTURE §11): outlet roles at outlets, store roles at stores… */
  scopeType: scopeTypeSchema,
});
export type AdminRoleRef = z.infer<typeof adminRoleRefSchema>;

export const adminOutletRefSchema = z.object({ id: z.number().int(), name: z.string(), code: z.string() });

/**
 * A role as the users list shows it: with where it is held ("Outlet Manager · Riverfront", or
 * "Outlet Buyer · 3 outlets"): `scopeName` is the place when the role is held at one place, "All" when global.
 */
export const adminUserRoleSummarySchema = adminRoleRefSchema.extend({
  scopeCount: z.number().int(),
  scopeName: z.string().nullable(),
});
export type AdminUserRoleSummary = z.infer<typeof adminUserRoleSummarySchema>;

/** One row of the users list (spec 002 §3 User list entry). */
export const adminUserRowSchema = z.object({
  id: z.string(),
  fullName: z.string().nullable(),
  email: z.string(),
  isActive: z.boolean(),
  outlets: z.array(adminOutletRefSchema),
  roles: z.array(adminUserRoleSummarySchema),
  canEdit: z.boolean(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUsersScopeSchema = z.enum(['all', 'board', 'store', 'outlet', 'none']);

export const adminUsersListSchema = z.object({
  items: z.array(adminUserRowSchema),
  /** Opaque; send it back as `cursor` for the next 50. Null on the last page. */
  nextCursor: z.string().nullable(),
  meta: z.object({
    scopeDescription: z.string(),
    filterType: adminUsersScopeSchema,
    currentUserRoles: z.array(z.string()),
    /** Users in the caller's scope matching the search (all pages). */
    userCount: z.number().int(),
  }),
});
export type AdminUsersList = z.infer<typeof adminUsersListSchema>;

/** GET /admin/users/{userId} (spec 002 §3 users-with-profiles). */
export const adminUserDetailSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  profile: z.object({
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    phone: z.string().nullable(),
    isActive: z.boolean(),
    /** ISO date-time, null when the user never signed in ('Never'). */
    lastLogin: z.string().nullable(),
  }),
  /** Every grant the user holds, each with where it is held and whether the caller may change it (§11 rule 2). */
  roles: z.array(grantRefSchema),
  /** The outlets the user belongs to (holds a grant at). */
  outlets: z.array(adminOutletRefSchema),
  /** May the caller change this user's grants at the places they manage (spec 002 §6)? */
  canEdit: z.boolean(),
  /**
   * May the caller change the profile and the active flag? Only when every grant of the user is at a place the
   * caller manages: deactivating reaches every place the person works (ARCHITECTURE §11 rule 2).
   */
  canEditProfile: z.boolean(),
  /** May the caller delete this user (super administrators, not themselves)? */
  canDelete: z.boolean(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminUserIdParamsSchema = z.strictObject({ userId: z.uuid() });

/** PATCH /admin/users/{userId}/profile (spec 002 §2 Profile card, §5). Email is not editable. */
export const adminUserProfileBodySchema = z.strictObject({
  firstName: z.string().trim().min(1, ADMIN_USER_MESSAGES.firstNameRequired).max(100),
  lastName: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .transform((v) => (v ? v : null)),
  phone: optionalPhoneSchema,
  isActive: z.boolean(),
});
export type AdminUserProfileBody = z.input<typeof adminUserProfileBodySchema>;

const outletIdList = z.array(z.number().int().positive()).max(500);
/** PUT /admin/users/{userId}/outlets: only the difference (spec 002 §7 user_outlets). */
export const adminUserOutletsBodySchema = z
  .strictObject({ add: outletIdList.default([]), remove: outletIdList.default([]) })
  .refine((b) => !b.add.some((id) => b.remove.includes(id)), { message: 'An outlet cannot be both added and removed', path: ['remove'] });
export type AdminUserOutletsBody = z.input<typeof adminUserOutletsBodySchema>;

/** Outlet for user management (spec 002 §3). */
export const manageableOutletSchema = z.object({
  outletId: z.number().int(),
  outletName: z.string(),
  outletCode: z.string(),
  /** Assigned to the user now. */
  assigned: z.boolean(),
  canManage: z.boolean(),
});
export const manageableOutletsSchema = z.object({ items: z.array(manageableOutletSchema) });
export type ManageableOutlet = z.infer<typeof manageableOutletSchema>;

/**
 * GET /admin/users/{userId}/assignable-roles: the roles the caller may grant, and the stores and boards where they
 * manage users (for store- and board-level roles; outlet roles go to the outlets of the Outlet Assignments list).
 */
export const assignableRolesSchema = z.object({
  items: z.array(adminRoleRefSchema),
  stores: z.array(z.object({ id: z.number().int(), name: z.string(), warehouseCode: z.string() })),
  boards: z.array(z.object({ id: z.number().int(), name: z.string(), boardNumber: z.number().int() })),
});
export type AssignableRoles = z.infer<typeof assignableRolesSchema>;

const scopeIdList = z.array(z.number().int().positive()).max(500).optional();
/**
 * POST /admin/users/{userId}/roles: one role (`roleId`) or several (`roleIds`), granted "at these outlets of
 * mine" (ARCHITECTURE §11): outlet roles at `outletIds`, else at each of the user's outlets the caller manages;
 * store roles at `storeIds`, board roles at `boardIds`.
 */
export const adminUserRolesBodySchema = z
  .strictObject({
    roleId: z.number().int().optional(),
    roleIds: z.array(z.number().int()).max(50).optional(),
    outletIds: scopeIdList,
    storeIds: scopeIdList,
    boardIds: scopeIdList,
  })
  .refine((b) => b.roleId !== undefined || (b.roleIds?.length ?? 0) > 0, {
    message: ADMIN_USER_MESSAGES.invalidRoleSelection,
    path: ['roleId'],
  });
export type AdminUserRolesBody = z.input<typeof adminUserRolesBodySchema>;

export const adminUserRoleParamsSchema = z.strictObject({ userId: z.uuid(), roleId: z.coerce.number().int().positive() });
/** DELETE /admin/users/{userId}/roles/{roleId}?scopeType=&scopeId=: one grant, or the role at every place the caller manages. */
export const adminUserRoleScopeQuerySchema = z.strictObject({
  scopeType: scopeTypeSchema.optional(),
  scopeId: z.coerce.number().int().positive().optional(),
});

/** A role with its permission codes (GET /admin/roles). */
export const adminRoleSchema = adminRoleRefSchema.extend({
  permissions: z.array(z.string()),
  /** The super_admin role: its permissions cannot be changed (ARCHITECTURE §9). */
  immutable: z.boolean(),
  userCount: z.number().int(),
});
export type AdminRole = z.infer<typeof adminRoleSchema>;
export const adminRolesSchema = z.object({ items: z.array(adminRoleSchema) });

export const adminPermissionSchema = z.object({ id: z.number().int(), code: z.string(), description: z.string().nullable() });
export const adminPermissionsSchema = z.object({ items: z.array(adminPermissionSchema) });
export type AdminPermission = z.infer<typeof adminPermissionSchema>;

export const rolePermissionParamsSchema = z.strictObject({
  roleId: z.coerce.number().int().positive(),
  permissionCode: z
    .string()
    .regex(/^bcc\.[a-z0-9_.]+$/, 'Not a permission code')
    .max(100),
});

/** GET /admin/audit-log filters (ARCHITECTURE §5). `entity` is a type (`user`) or `type:id`. */
export const auditLogQuerySchema = z.strictObject({
  actor: z.string().trim().max(200).optional(),
  action: z.string().trim().max(100).optional(),
  entity: z.string().trim().max(200).optional(),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AuditLogQuery = z.input<typeof auditLogQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  occurredAt: z.string(),
  actorUserId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  entityType: z.string().nullable(),
  entityId: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogSchema = z.object({ items: z.array(auditEntrySchema), nextCursor: z.number().int().nullable() });
