import type { Route } from './http/route';
import { itemsRoutes } from './modules/items/items.routes';
import { adminOutletsRoutes } from './modules/admin-outlets/admin-outlets.routes';
import { adminStoresRoutes } from './modules/admin-stores/admin-stores.routes';
import { boardsRoutes } from './modules/boards/boards.routes';
import { credentialsRoutes } from './modules/credentials/credentials.routes';
import { importsRoutes } from './modules/imports/imports.routes';
import { healthRoutes } from './modules/health/health.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { meRoutes } from './modules/me/me.routes';
import { outletsRoutes } from './modules/outlets/outlets.routes';
import { storesRoutes } from './modules/stores/stores.routes';
import { cartsRoutes } from './modules/carts/carts.routes';
import { quickOrderRoutes } from './modules/carts/quick-order.routes';
import { orderGuidesRoutes } from './modules/order-guides/order-guides.routes';
import { checkoutSessionsRoutes } from './modules/checkout-sessions/checkout-sessions.routes';
import { ordersRoutes } from './modules/orders/orders.routes';
import { liveEventsRoutes } from './modules/orders/live-events.routes';
import { invitationsRoutes } from './modules/invitations/invitations.routes';
import { adminUsersRoutes } from './modules/admin-users/admin-users.routes';
import { rolesRoutes } from './modules/roles/roles.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { paymentsRoutes } from './modules/payments/payments.routes';
import { integrationsAdminRoutes, integrationsRoutes } from './modules/integrations/integrations.routes';
import { schedulesRoutes } from './modules/schedules/schedules.routes';
import { claimsRoutes } from './modules/claims/claims.routes';
import { documentsRoutes } from './modules/documents/documents.routes';

/**
 * The route table: every route of /api/v1 declared once with `route()` (http/route.ts). app.ts mounts it;
 * the OpenAPI document and the permission matrix tests read it.
 */
export const routeTable: readonly Route[] = [
  ...itemsRoutes,
  ...adminOutletsRoutes,
  ...adminStoresRoutes,
  ...boardsRoutes,
  ...credentialsRoutes,
  ...importsRoutes,
  ...healthRoutes,
  ...authRoutes,
  ...meRoutes,
  ...outletsRoutes,
  ...storesRoutes,
  ...cartsRoutes,
  ...quickOrderRoutes,
  ...orderGuidesRoutes,
  ...checkoutSessionsRoutes,
  ...ordersRoutes,
  ...liveEventsRoutes,
  ...invitationsRoutes,
  ...adminUsersRoutes,
  ...rolesRoutes,
  ...auditRoutes,
  ...paymentsRoutes,
  ...integrationsAdminRoutes,
  ...integrationsRoutes,
  ...schedulesRoutes,
  ...claimsRoutes,
  ...documentsRoutes,
];
