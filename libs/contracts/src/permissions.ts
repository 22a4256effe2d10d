/**
 * Permission codes (spec 000 §6 and spec 002 §6) and the default role catalogue.
 * The server decides; the web only hides. Codes are the same strings in DB, API, UI and tests.
 */
export const PERMISSIONS = {
  storesAdmin: 'bcc.stores.admin',
  storesSuperAdmin: 'bcc.stores.super_admin',
  storesManage: 'bcc.stores.manage',
  outletsAdmin: 'bcc.outlets.admin',
  outletsSuperAdmin: 'bcc.outlets.super_admin',
  outletsReadAssigned: 'bcc.outlets.read_assigned',
  usersSuperAdmin: 'bcc.users.super_admin',
  usersManageBoard: 'bcc.users.manage_board',
  usersManageStore: 'bcc.users.manage_store',
  usersManageOutlet: 'bcc.users.manage_outlet',
  usersAllowInvites: 'bcc.users.allow_invites',
  usersAllowInvitesAllStoreOutlets: 'bcc.users.allow_invites.all_store_outlets',
  adminRolesUpdate: 'bcc.admin.roles.update',
  adminCredentialsManage: 'bcc.admin.credentials.manage',
  adminSettingsManage: 'bcc.admin.settings.manage',
  adminUserRolesManage: 'bcc.admin.user_roles.manage',
  adminAllowDataSync: 'bcc.admin.allow_data_sync',
  boardsManage: 'bcc.boards.manage',
  itemsView: 'bcc.items.view',
  itemsUpdate: 'bcc.items.update',
  itemView: 'bcc.item.view',
  itemUpdate: 'bcc.item.update',
  ordersOutletManage: 'bcc.orders.outlet.manage',
  ordersStoreManage: 'bcc.orders.store.manage',
  cartsCheckout: 'bcc.carts.checkout',
  cartsUse: 'bcc.carts.use',
  uiShowAdminMenu: 'bcc.ui.show_admin_menu',
} as const;

export type PermissionCode = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

/** Every permission code with its description, as seeded into `permissions`. */
export const PERMISSION_DESCRIPTIONS: Record<PermissionCode, string> = {
  'bcc.stores.admin': 'View and edit stores',
  'bcc.stores.super_admin': 'Add stores, assign and remove outlets, edit any store',
  'bcc.stores.manage': 'Manage the stores one is linked to',
  'bcc.outlets.admin': 'Manage outlets (admin Outlets tab)',
  'bcc.outlets.super_admin': 'Manage every outlet',
  'bcc.outlets.read_assigned': 'Read the outlets one is assigned to',
  'bcc.users.super_admin': 'Manage every user, including deleting users',
  'bcc.users.manage_board': "Manage users of one's board",
  'bcc.users.manage_store': "Manage users of one's stores",
  'bcc.users.manage_outlet': "Manage users of one's outlets",
  'bcc.users.allow_invites': 'Invite new users',
  'bcc.users.allow_invites.all_store_outlets': 'Invite users to any outlet of the current store',
  'bcc.admin.roles.update': 'Edit the permissions of roles',
  'bcc.admin.credentials.manage': 'Manage payment credentials',
  'bcc.admin.settings.manage': 'Manage portal settings',
  'bcc.admin.user_roles.manage': 'Assign roles to users',
  'bcc.admin.allow_data_sync': 'Use the data synch tab',
  'bcc.boards.manage': 'Manage boards',
  'bcc.items.view': 'View the item catalog',
  'bcc.items.update': 'Edit items',
  'bcc.item.view': 'View the item catalog (legacy code)',
  'bcc.item.update': 'Edit items (legacy code)',
  'bcc.orders.outlet.manage': "See the orders of one's outlet",
  'bcc.orders.store.manage': "See and process the orders of one's stores",
  'bcc.carts.checkout': 'Check out and pay',
  'bcc.carts.use': 'Shop and add to cart',
  'bcc.ui.show_admin_menu': 'See the Admin menu item',
};

export const ALL_PERMISSION_CODES = Object.keys(PERMISSION_DESCRIPTIONS) as PermissionCode[];

/** Role codes of the default catalogue; lower role_level = more privileged (ARCHITECTURE §9). */
export const ROLES = {
  superAdmin: 'super_admin',
  boardAdmin: 'board_admin',
  storeManager: 'store_manager',
  storeStaff: 'store_staff',
  outletManager: 'outlet_manager',
  outletBuyer: 'outlet_buyer',
  outletViewer: 'outlet_viewer',
} as const;
export type RoleCode = (typeof ROLES)[keyof typeof ROLES];

/**
 * Where a role is granted (ARCHITECTURE §11): `global` (super administrators only: everything), `board`
 * (a board's stores, their outlets, items and users), `store` (one store: its orders, settings, keys,
 * webhooks, and the users of its outlets), `outlet` (one outlet: its carts, orders, requests, users).
 */
export const SCOPE_TYPES = ['global', 'board', 'store', 'outlet'] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];

const P = PERMISSIONS;
export interface RoleDefinition {
  code: RoleCode;
  roleName: string;
  description: string;
  roleLevel: number;
  /** The scope the role is granted at (ARCHITECTURE §11). */
  scopeType: ScopeType;
  permissions: readonly PermissionCode[];
}

/** The default role catalogue seeded as reference data (README lists it as a table). */
export const DEFAULT_ROLES: readonly RoleDefinition[] = [
  {
    code: 'super_admin',
    roleName: 'Super Administrator',
    roleLevel: 0,
    scopeType: 'global',
    description: 'Everything, across every board, store and outlet.',
    permissions: ALL_PERMISSION_CODES,
  },
  {
    code: 'board_admin',
    roleName: 'Board Administrator',
    roleLevel: 10,
    scopeType: 'board',
    description: 'Runs a board: its stores, outlets, items, users and payment credentials.',
    permissions: [
      P.uiShowAdminMenu,
      P.storesAdmin,
      P.storesManage,
      P.outletsAdmin,
      P.outletsReadAssigned,
      P.usersManageBoard,
      P.usersAllowInvites,
      P.usersAllowInvitesAllStoreOutlets,
      P.adminUserRolesManage,
      P.adminCredentialsManage,
      P.boardsManage,
      P.itemsView,
      P.itemsUpdate,
      P.itemView,
      P.itemUpdate,
      P.ordersStoreManage,
      P.cartsUse,
    ],
  },
  {
    code: 'store_manager',
    roleName: 'Store Manager',
    roleLevel: 20,
    scopeType: 'store',
    description: 'Runs a store: processes its orders, sees its catalog, invites its users.',
    permissions: [
      P.uiShowAdminMenu,
      P.storesAdmin,
      P.storesManage,
      P.outletsReadAssigned,
      P.usersManageStore,
      P.usersAllowInvites,
      P.usersAllowInvitesAllStoreOutlets,
      P.itemsView,
      P.itemView,
      P.ordersStoreManage,
      P.cartsUse,
    ],
  },
  {
    code: 'store_staff',
    roleName: 'Store Staff',
    roleLevel: 30,
    scopeType: 'store',
    description: 'Processes the orders of the stores one is linked to.',
    permissions: [P.ordersStoreManage, P.outletsReadAssigned, P.itemsView, P.itemView],
  },
  {
    code: 'outlet_manager',
    roleName: 'Outlet Manager',
    roleLevel: 40,
    scopeType: 'outlet',
    description: "Runs an outlet: orders, pays, sees the outlet's orders, invites its users.",
    permissions: [P.cartsUse, P.cartsCheckout, P.ordersOutletManage, P.usersManageOutlet, P.usersAllowInvites, P.outletsReadAssigned],
  },
  {
    code: 'outlet_buyer',
    roleName: 'Outlet Buyer',
    roleLevel: 50,
    scopeType: 'outlet',
    description: 'Shops, orders and pays for the outlets one is assigned to.',
    permissions: [P.cartsUse, P.cartsCheckout, P.outletsReadAssigned],
  },
  {
    code: 'outlet_viewer',
    roleName: 'Outlet Viewer',
    roleLevel: 60,
    scopeType: 'outlet',
    description: 'May shop and build a cart, may not check out.',
    permissions: [P.cartsUse, P.outletsReadAssigned],
  },
];
