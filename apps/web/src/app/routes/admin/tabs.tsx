import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { PERMISSIONS as P } from '@portal/contracts';

/** One tab of the admin dashboard (spec 002 §2): shown only to holders of any of its permission codes. */
export interface AdminTab {
  /** Also the value of the navigation state's `activeTab` (e.g. `navigate('/admin', { state: { activeTab: 'stores' } })`). */
  id: string;
  label: string;
  permissions: readonly string[];
  Panel: ComponentType | LazyExoticComponent<ComponentType>;
}

/** A tab panel that loads on first show (each feature exports its panel by name). */
function panel<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}
// Keep the import of `panel` used while panels are being built.
void panel;

/**
 * The admin tabs in the spec's order, then the portal's own (audit, integrations). A feature plugs its
 * panel in here, e.g. `Panel: panel(() => import('@/features/admin-items'), 'ItemsTab')`.
 */
export const ADMIN_TABS: AdminTab[] = [
  {
    id: 'data-sync',
    label: 'Data Synch',
    permissions: [P.adminAllowDataSync],
    Panel: panel(() => import('@/features/admin-data-sync'), 'DataSyncTab'),
  },
  {
    id: 'users',
    label: 'Users',
    permissions: [P.usersSuperAdmin, P.usersManageBoard, P.usersManageStore, P.usersManageOutlet, P.adminUserRolesManage],
    Panel: panel(() => import('./users-panels'), 'UsersTabPanel'),
  },
  // Read-only (with the spec's warning) for those who assign roles without bcc.admin.roles.update.
  {
    id: 'roles',
    label: 'Roles',
    permissions: [P.adminRolesUpdate, P.usersSuperAdmin, P.adminUserRolesManage],
    Panel: panel(() => import('./users-panels'), 'RolesTabPanel'),
  },
  { id: 'items', label: 'Items', permissions: [P.itemsView, P.itemView], Panel: panel(() => import('@/features/admin-items'), 'ItemsTab') },
  { id: 'outlets', label: 'Outlets', permissions: [P.outletsAdmin], Panel: panel(() => import('@/features/admin-outlets'), 'OutletsTab') },
  {
    id: 'stores',
    label: 'Stores',
    permissions: [P.storesAdmin, P.storesSuperAdmin],
    Panel: panel(() => import('@/features/admin-stores'), 'StoresTab'),
  },
  { id: 'boards', label: 'Boards', permissions: [P.boardsManage], Panel: panel(() => import('@/features/admin-boards'), 'BoardsTab') },
  {
    id: 'credentials',
    label: 'Credentials',
    permissions: [P.adminCredentialsManage],
    Panel: panel(() => import('@/features/admin-credentials'), 'CredentialsTab'),
  },
  {
    id: 'api-keys',
    label: 'API Keys',
    permissions: [P.storesAdmin, P.boardsManage, P.usersSuperAdmin],
    Panel: panel(() => import('@/features/admin-integrations'), 'ApiKeysTab'),
  },
  {
    id: 'webhooks',
    label: 'Webhooks',
    permissions: [P.storesAdmin, P.boardsManage, P.usersSuperAdmin],
    Panel: panel(() => import('@/features/admin-integrations'), 'WebhooksTab'),
  },
  {
    id: 'audit',
    label: 'Audit',
    permissions: [P.usersSuperAdmin, P.usersManageBoard],
    Panel: panel(() => import('./users-panels'), 'AuditTabPanel'),
  },
];
