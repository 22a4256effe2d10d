import type { Me } from '@portal/contracts';

/**
 * GET /me as the contracts' meSchema answers it for Blake Buyer (user u1, no roles, no permissions), for web tests;
 * `over` replaces top-level parts and `profile` merges into the profile.
 */
export const meFixture = (over: Partial<Omit<Me, 'profile'>> & { profile?: Partial<Me['profile']> } = {}): Me => {
  const { profile, ...rest } = over;
  return {
    user: { id: 'u1', email: 'buyer@example.com', isActive: true, lastLoginAt: null },
    roles: [],
    permissions: [],
    ...rest,
    profile: {
      userId: 'u1',
      email: 'buyer@example.com',
      firstName: 'Blake',
      lastName: 'Buyer',
      fullName: 'Blake Buyer',
      phone: null,
      lastSelectedOutletId: null,
      lastSelectedStoreId: null,
      ...profile,
    },
  };
};
