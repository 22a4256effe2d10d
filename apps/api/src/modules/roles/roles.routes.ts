import { PERMISSIONS as P, adminPermissionsSchema, adminRoleSchema, adminRolesSchema, rolePermissionParamsSchema } from '@portal/contracts';
import { route } from '../../http/route';
import * as roles from './roles.service';

const tags = ['roles'];
/** Reading roles: the Roles tab (editors and super administrators) and those who assign roles. */
const READ = [P.adminRolesUpdate, P.usersSuperAdmin, P.adminUserRolesManage] as const;
const role = adminRoleSchema.meta({ id: 'AdminRole' });
const BOUND =
  'Applies to every holder of the role on their next request; on the catalog routes (which reuse a loaded principal for up to 2 s) within 2 seconds.';

/** /api/v1/admin/roles and /admin/permissions (spec 002 §2 Roles; ARCHITECTURE §5, §9). */
export const rolesRoutes = [
  route({
    method: 'get',
    path: '/admin/roles',
    scope: 'reference',
    tags,
    permissions: READ,
    summary: 'Every role with its level, permission codes and number of holders; immutable marks super_admin',
    response: { description: 'Roles', schema: adminRolesSchema },
    handler: (_actor, _input, { ctx }) => roles.listRoles(ctx.db),
  }),
  route({
    method: 'get',
    path: '/admin/permissions',
    scope: 'reference',
    tags,
    permissions: READ,
    summary: 'Every permission code with its description',
    response: { description: 'Permissions', schema: adminPermissionsSchema },
    handler: (_actor, _input, { ctx }) => roles.listPermissions(ctx.db),
  }),
  route({
    method: 'put',
    path: '/admin/roles/{roleId}/permissions/{permissionCode}',
    scope: 'global',
    tags,
    permissions: [P.adminRolesUpdate],
    params: rolePermissionParamsSchema,
    summary: 'Grant a permission to a role',
    description: BOUND,
    response: { description: 'The role', schema: role },
    errors: { 404: 'Unknown role or permission code', 409: 'The super_admin role cannot be changed (role_immutable)' },
    handler: (actor, { params }, { ctx, req }) =>
      roles.setRolePermission(ctx.db, actor, params.roleId, params.permissionCode, true, { ip: req.ip }),
  }),
  route({
    method: 'delete',
    path: '/admin/roles/{roleId}/permissions/{permissionCode}',
    scope: 'global',
    tags,
    permissions: [P.adminRolesUpdate],
    params: rolePermissionParamsSchema,
    summary: 'Revoke a permission from a role',
    description: BOUND,
    response: { description: 'The role', schema: role },
    errors: { 404: 'Unknown role or permission code', 409: 'The super_admin role cannot be changed (role_immutable)' },
    handler: (actor, { params }, { ctx, req }) =>
      roles.setRolePermission(ctx.db, actor, params.roleId, params.permissionCode, false, { ip: req.ip }),
  }),
];
