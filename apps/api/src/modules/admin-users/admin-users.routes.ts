import {
  PERMISSIONS as P,
  adminUserGrantsBodySchema,
  adminUserRoleScopeQuerySchema,
  adminUserDetailSchema,
  adminUserIdParamsSchema,
  adminUserRefParamsSchema,
  manageableOutletsPageSchema,
  manageableOutletsQuerySchema,
  adminUserOutletsBodySchema,
  adminUserProfileBodySchema,
  adminUserRoleParamsSchema,
  adminUserRolesBodySchema,
  ADMIN_BULK_MAX,
  adminUserIdsSchema,
  adminUsersBulkBodySchema,
  adminUsersBulkResultSchema,
  adminUsersFilterSchema,
  adminUsersListQuerySchema,
  adminUsersPageSchema,
  assignableRolesSchema,
} from '@portal/contracts';
import { z } from 'zod';
import { route } from '../../http/route';
import { USER_MANAGEMENT_CODES } from '../access/grants.service';
import { linkBaseFor } from '../auth/auth.service';
import * as users from './admin-users.service';
import { bulkUsers } from './users-bulk.service';

const tags = ['admin-users'];
/** The user-management permissions (spec 002 §2 /admin/users/{userId}), held at the places whose users one manages (ARCHITECTURE §11). */
const MANAGE = USER_MANAGEMENT_CODES;
const notFound = 'User not found';
const detail = adminUserDetailSchema.meta({ id: 'AdminUserDetail' });
const EDIT_ERRORS = {
  403: 'Editing oneself (self_edit_forbidden; super administrators excepted) or a user as privileged as oneself (user_not_editable)',
  404: "No such user in the caller's scope",
};

/** /api/v1/admin/users: the scoped users list and Edit User (spec 002 §2, §4–§8; ARCHITECTURE §5, §9). */
export const adminUsersRoutes = [
  route({
    method: 'get',
    path: '/admin/users',
    scope: 'reach',
    tags,
    permissions: MANAGE,
    query: adminUsersListQuerySchema,
    summary:
      "Users holding a grant at a place where the caller manages users (super administrator: all; board: the board's stores and outlets; store: the store and its outlets; outlet: the outlet), filtered by search (name or email), role (code), outletId, storeId, status (active, inactive, invited = the pending invitations as rows of their own), sorted by name, email, lastLogin or status ('-' for descending), paged by page and pageSize (default 25, at most 100) with total; or the earlier form: by name, `limit` a page with `cursor`",
    response: {
      description: 'Rows with status, lastLogin and canEdit; total, page, pageSize, nextCursor and the scope metadata',
      schema: adminUsersPageSchema,
    },
    handler: (actor, { query }, { ctx }) => users.listUsers(ctx.db, actor, query),
  }),
  route({
    method: 'get',
    path: '/admin/users/ids',
    scope: 'reach',
    tags,
    permissions: MANAGE,
    query: adminUsersFilterSchema,
    summary:
      'The ids of every row the users list shows for these filters (at most 10,000), for "select all N matching" and the bulk actions',
    response: { description: 'Ids in list order, the total and whether the ids were cut short', schema: adminUserIdsSchema },
    handler: (actor, { query }, { ctx }) => users.userIds(ctx.db, actor, query),
  }),
  route({
    method: 'get',
    path: '/admin/users/export.csv',
    scope: 'reach',
    tags,
    permissions: MANAGE,
    query: adminUsersFilterSchema,
    summary: 'The users list with these filters as CSV (Name, Email, Status, Last sign-in, Roles, Outlets), streamed in batches',
    response: { description: 'text/csv', schema: z.string() },
    handler: async (actor, { query }, { ctx, res }) => {
      res.status(200).set({
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="users.csv"',
        'Cache-Control': 'no-store',
      });
      await users.exportUsers(ctx.db, actor, query, (chunk) => {
        if (!res.write(chunk)) return new Promise<void>((resolve) => res.once('drain', () => resolve()));
      });
      res.end();
    },
  }),
  route({
    method: 'post',
    path: '/admin/users/bulk',
    scope: 'reach',
    tags,
    permissions: MANAGE,
    body: adminUsersBulkBodySchema,
    summary: `One action on up to ${ADMIN_BULK_MAX} rows (activate, deactivate, grant or revoke a role at a scope, resend-invitation for invitation rows), each checked and audited as if done alone`,
    response: {
      description: 'One result per id: ok, or the code and message the single change would have answered',
      schema: adminUsersBulkResultSchema,
    },
    handler: (actor, { body }, { ctx, req }) =>
      bulkUsers(ctx, actor, body, { ip: req.ip, linkBase: linkBaseFor(ctx.config, { protocol: req.protocol, host: req.get('host') }) }),
  }),
  route({
    method: 'get',
    path: '/admin/users/{userId}',
    scope: { row: 'user', id: (i) => i.params.userId, notFound },
    tags,
    permissions: MANAGE,
    params: adminUserRefParamsSchema,
    summary:
      'One user with profile (lastLogin), every grant with where it is held and whether the caller may change it, outlets; canEdit, canEditProfile, canDelete',
    response: { description: 'The user', schema: detail },
    errors: { 404: EDIT_ERRORS[404] },
    handler: (actor, { params }, { ctx }) => users.getUser(ctx.db, actor, params.userId),
  }),
  route({
    method: 'patch',
    path: '/admin/users/{userId}/profile',
    scope: { row: 'user', id: (i) => i.params.userId, notFound },
    tags,
    permissions: MANAGE,
    params: adminUserIdParamsSchema,
    body: adminUserProfileBodySchema,
    summary: 'Change first name, last name, phone and the active flag; deactivating revokes every session of the user at once',
    response: { description: 'The user', schema: detail },
    errors: { ...EDIT_ERRORS, 409: 'Deactivating oneself (self_deactivate) or the last active super administrator (last_super_admin)' },
    handler: (actor, { params, body }, { ctx, req }) => users.updateProfile(ctx.db, actor, params.userId, body, { ip: req.ip }),
  }),
  route({
    method: 'put',
    path: '/admin/users/{userId}/outlets',
    scope: { row: 'user', id: (i) => i.params.userId, notFound },
    tags,
    permissions: MANAGE,
    params: adminUserIdParamsSchema,
    body: adminUserOutletsBodySchema,
    summary: 'Assign (add) and unassign (remove) outlets: only the difference, only outlets the caller may manage',
    response: { description: 'The user', schema: detail },
    errors: {
      403: `${EDIT_ERRORS[403]}; an outlet the caller cannot manage (outlet_not_manageable)`,
      404: `${EDIT_ERRORS[404]}, or an unknown outlet`,
    },
    handler: (actor, { params, body }, { ctx, req }) => users.updateOutlets(ctx.db, actor, params.userId, body, { ip: req.ip }),
  }),
  route({
    method: 'get',
    path: '/admin/users/{userId}/manageable-outlets',
    scope: { row: 'user', id: (i) => i.params.userId, notFound },
    tags,
    permissions: MANAGE,
    params: adminUserRefParamsSchema,
    query: manageableOutletsQuerySchema,
    summary:
      "The outlets the caller may manage plus the user's own, by name, with assigned and canManage; search (name or code), assigned=true (the user's only) and limit for pickers",
    response: { description: 'Outlets for user management', schema: manageableOutletsPageSchema },
    errors: { 404: EDIT_ERRORS[404] },
    handler: (actor, { params, query }, { ctx }) => users.manageableOutlets(ctx.db, actor, params.userId, query),
  }),
  route({
    method: 'get',
    path: '/admin/users/{userId}/assignable-roles',
    scope: { row: 'user', id: (i) => i.params.userId, notFound },
    tags,
    permissions: MANAGE,
    params: adminUserRefParamsSchema,
    summary: "Roles strictly less privileged than the caller's best role (role_level greater); every role for super administrators",
    response: { description: 'Roles', schema: assignableRolesSchema },
    errors: { 404: EDIT_ERRORS[404] },
    handler: (actor, { params }, { ctx }) => users.assignableRoles(ctx.db, actor, params.userId),
  }),
  route({
    method: 'post',
    path: '/admin/users/{userId}/roles',
    scope: { row: 'user', id: (i) => i.params.userId, notFound },
    tags,
    permissions: MANAGE,
    params: adminUserIdParamsSchema,
    body: adminUserRolesBodySchema,
    summary: 'Grant a role ({ roleId }) or several ({ roleIds }); unknown ids are ignored',
    response: { description: 'The user', schema: detail },
    errors: {
      ...EDIT_ERRORS,
      403: `${EDIT_ERRORS[403]}; a role as privileged as the caller's (role_not_assignable)`,
      422: "'Invalid role selection: no valid role IDs found' (invalid_role_selection)",
    },
    handler: (actor, { params, body }, { ctx, req }) => users.addRoles(ctx.db, actor, params.userId, body, { ip: req.ip }),
  }),
  route({
    method: 'delete',
    path: '/admin/users/{userId}/roles/{roleId}',
    scope: { row: 'user', id: (i) => i.params.userId, notFound },
    tags,
    permissions: MANAGE,
    params: adminUserRoleParamsSchema,
    query: adminUserRoleScopeQuerySchema,
    summary: 'Take a role away at one place (scopeType, scopeId), or at every place the caller may change it (grants elsewhere stay)',
    response: { description: 'The user', schema: detail },
    errors: {
      ...EDIT_ERRORS,
      404: `${EDIT_ERRORS[404]}, or the user does not have the role`,
      409: 'The last active super administrator (last_super_admin)',
    },
    handler: (actor, { params, query }, { ctx, req }) =>
      users.removeRole(ctx.db, actor, params.userId, params.roleId, { ip: req.ip }, query),
  }),
  route({
    method: 'put',
    path: '/admin/users/{userId}/grants',
    scope: { row: 'user', id: (i) => i.params.userId, notFound },
    tags,
    permissions: MANAGE,
    params: adminUserIdParamsSchema,
    body: adminUserGrantsBodySchema,
    summary: 'Add and remove grants (a role at a scope: global, board, store or outlet), only the difference, by the granting rules',
    response: { description: 'The user', schema: detail },
    errors: {
      ...EDIT_ERRORS,
      403: `${EDIT_ERRORS[403]}; oneself (self_grant_forbidden); a place out of reach (scope_not_grantable, outlet_not_manageable); a role not below the caller's there (role_not_assignable)`,
      409: 'The last active super administrator (last_super_admin)',
      400: 'An unknown role or place, or a role at another scope type than its own (validation_failed)',
    },
    handler: (actor, { params, body }, { ctx, req }) => users.updateGrants(ctx.db, actor, params.userId, body, { ip: req.ip }),
  }),
  route({
    method: 'delete',
    path: '/admin/users/{userId}',
    scope: 'global',
    tags,
    permissions: [P.usersSuperAdmin],
    params: adminUserIdParamsSchema,
    summary:
      'Delete a user (ARCHITECTURE §9): account, profile, sessions, carts, role and outlet links, pending invitations go; orders stay as "Deleted user"',
    response: { description: 'Deleted' },
    errors: { 404: 'No such user', 409: 'Oneself (self_delete) or the last active super administrator (last_super_admin)' },
    handler: (actor, { params }, { ctx, req }) => users.deleteUser(ctx.db, actor, params.userId, { ip: req.ip }),
  }),
];
