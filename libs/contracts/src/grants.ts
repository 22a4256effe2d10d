import { z } from 'zod';
import { SCOPE_TYPES } from './permissions';

/**
 * Scoped grants (ARCHITECTURE §11): a role is held *at* a place — globally (super administrators), at a
 * board, a store or an outlet — and reaches only what that place holds. These are the shapes the API and
 * the SPA share for grants: what a user holds where, what a caller changes, and the per-scope answer of
 * GET /me/permissions.
 */

export const scopeTypeSchema = z.enum(SCOPE_TYPES);

/** Texts of the granting rules (ARCHITECTURE §11), shared verbatim by the API and the SPA. */
export const GRANT_MESSAGES = {
  selfGrant: 'You cannot grant roles to yourself, directly or through an invitation to your own address.',
  scopeNotGrantable: (place: string) => `You may not grant roles at ${place}.`,
  scopeRequired: (role: string, scopeType: string) =>
    scopeType === 'store'
      ? `${role} is held at stores: choose at least one store.`
      : scopeType === 'board'
        ? `${role} is held at boards: choose at least one board.`
        : `${role} is held at outlets: choose at least one outlet.`,
  wrongScope: (role: string, scopeType: string) => `${role} can only be granted at a ${scopeType} scope.`,
  unknownScope: (scopeType: string, id: number) => `The ${scopeType} ${id} does not exist.`,
  placesWithoutRole: (scopeType: string) => `No role of this invitation is held at ${scopeType}s: add one, or clear the ${scopeType}s.`,
  noRoleForOutlet: 'Add a role first: outlets are granted with the roles this user holds at your outlets.',
  readOnlyElsewhere: (n: number) => `${n} ${n === 1 ? 'role' : 'roles'} held at places you don't manage (read-only).`,
} as const;

/** One grant as an administrator sees it (GET /admin/users/{userId} roles[]). */
export const grantRefSchema = z.object({
  /** The role's id (kept as `id` for the spec's role list). */
  id: z.number().int(),
  roleId: z.number().int(),
  code: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  level: z.number().int(),
  scopeType: scopeTypeSchema,
  /** The board, store (warehouse id) or outlet id; null for a global grant. */
  scopeId: z.number().int().nullable(),
  /** The place's name ("Demo – Court Avenue Taproom", "Central City Liquor"); "All" for a global grant. */
  scopeName: z.string(),
  /** May the caller change this grant (it is at a place they manage, below their level there)? */
  editable: z.boolean(),
});
export type GrantRef = z.infer<typeof grantRefSchema>;

/** A grant to add or remove: a role at one scope (`scopeId` null only for `global`). */
export const grantChangeSchema = z
  .strictObject({
    roleId: z.number().int().positive(),
    scopeType: scopeTypeSchema,
    scopeId: z.number().int().positive().nullable(),
  })
  .refine((g) => (g.scopeType === 'global') === (g.scopeId === null), {
    message: 'A global grant has no scope id; every other grant needs one',
    path: ['scopeId'],
  });
export type GrantChange = z.infer<typeof grantChangeSchema>;

const grantList = z.array(grantChangeSchema).max(500);
/** PUT /admin/users/{userId}/grants: only the difference (ARCHITECTURE §5 "Grants"). */
export const adminUserGrantsBodySchema = z
  .strictObject({ add: grantList.default([]), remove: grantList.default([]) })
  .refine((b) => b.add.length + b.remove.length > 0, { message: 'Nothing to change', path: ['add'] });
export type AdminUserGrantsBody = z.input<typeof adminUserGrantsBodySchema>;

const codes = z.array(z.string());
/**
 * GET /me/permissions: `codes` are every code held anywhere (what the SPA shows or hides); `global` the codes
 * held everywhere; `boards`, `stores` and `outlets` the codes held at each place a grant names.
 */
export const myPermissionsSchema = z.object({
  codes,
  global: codes,
  boards: z.array(z.object({ boardId: z.number().int(), codes })),
  stores: z.array(z.object({ storeId: z.number().int(), codes })),
  outlets: z.array(z.object({ outletId: z.number().int(), codes })),
});
export type MyPermissions = z.infer<typeof myPermissionsSchema>;

/** GET /me/permissions/{code}?outletId=&storeId=&boardId=: is the code held there (or anywhere, with no place)? */
export const permissionAtQuerySchema = z.strictObject({
  outletId: z.coerce.number().int().positive().optional(),
  storeId: z.coerce.number().int().positive().optional(),
  boardId: z.coerce.number().int().positive().optional(),
});
