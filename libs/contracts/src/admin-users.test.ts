import {
  ADMIN_USER_MESSAGES as M,
  adminUserOutletsBodySchema,
  adminUserProfileBodySchema,
  adminUserRolesBodySchema,
  rolePermissionParamsSchema,
} from './admin-users';

describe('admin users contracts (spec 002 §5)', () => {
  it("trims names, requires a first name with the spec's message, empties become null", () => {
    expect(adminUserProfileBodySchema.parse({ firstName: ' Tara ', lastName: ' ', phone: '', isActive: true })).toEqual({
      firstName: 'Tara',
      lastName: null,
      phone: null,
      isActive: true,
    });
    const r = adminUserProfileBodySchema.safeParse({ firstName: '   ', isActive: true });
    expect(r.success ? null : r.error.issues[0].message).toBe(M.firstNameRequired);
    expect(adminUserProfileBodySchema.safeParse({ firstName: 'A', isActive: true, email: 'x@y.z' }).success).toBe(false);
  });

  it('outlet changes are a difference: defaults to empty lists, an id cannot be both added and removed', () => {
    expect(adminUserOutletsBodySchema.parse({ add: [2] })).toEqual({ add: [2], remove: [] });
    expect(adminUserOutletsBodySchema.safeParse({ add: [2], remove: [2] }).success).toBe(false);
    expect(adminUserOutletsBodySchema.safeParse({ add: [0] }).success).toBe(false);
  });

  it("a role selection needs roleId or a non-empty roleIds ('Invalid role selection: no valid role IDs found')", () => {
    expect(adminUserRolesBodySchema.safeParse({ roleId: 3 }).success).toBe(true);
    const r = adminUserRolesBodySchema.safeParse({ roleIds: [] });
    expect(r.success ? null : r.error.issues[0].message).toBe(M.invalidRoleSelection);
  });

  it('permission codes in paths look like bcc.* codes', () => {
    expect(rolePermissionParamsSchema.safeParse({ roleId: '3', permissionCode: 'bcc.carts.use' }).success).toBe(true);
    expect(rolePermissionParamsSchema.safeParse({ roleId: '3', permissionCode: 'DROP TABLE' }).success).toBe(false);
  });
});
