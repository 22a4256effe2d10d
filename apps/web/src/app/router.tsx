import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { PERMISSIONS } from '@portal/contracts';
import { AppLayout } from './layout';
import { RequireAuth } from './guards';
import { HomeRoute } from './routes/home';
import { AuthRoute } from './routes/auth';
import { ProfileRoute } from './routes/profile';
import { CartRoute } from './routes/cart';
import { StoreOrdersRoute } from './routes/store-orders';
import { OrderHistoryRoute } from './routes/order-history';
import { ShopRoute } from './routes/shop';
import { AdminRoute } from './routes/admin';
import { PaymentRoute } from './routes/payment';
import { OrderConfirmationRoute } from './routes/order-confirmation';
import { PricingCalculatorRoute } from './routes/pricing-calculator';
import { InvitationAcceptRoute } from './routes/invitation-accept';
import { NotFoundRoute } from './routes/not-found';

const P = PERMISSIONS;
const ADMIN_USER_PERMISSIONS = [P.usersSuperAdmin, P.adminUserRolesManage, P.usersManageStore, P.usersManageOutlet].join(',');

/** The route table of spec 000 §2 / spec 002 §2 with its guards. */
export const routes = [
  { path: '/invitation/accept', element: <InvitationAcceptRoute /> },
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/auth', element: <AuthRoute /> },
      { path: '/profile', element: <RequireAuth><ProfileRoute /></RequireAuth> },
      { path: '/cart', element: <RequireAuth><CartRoute /></RequireAuth> },
      { path: '/orders', element: <RequireAuth permissions={P.ordersStoreManage}><StoreOrdersRoute /></RequireAuth> },
      { path: '/order-history', element: <RequireAuth><OrderHistoryRoute /></RequireAuth> },
      { path: '/shop', element: <RequireAuth><ShopRoute /></RequireAuth> },
      { path: '/admin', element: <RequireAuth permissions={P.uiShowAdminMenu}><AdminRoute /></RequireAuth> },
      { path: '/admin/store/:id', element: <RequireAuth permissions={P.uiShowAdminMenu}><AdminRoute /></RequireAuth> },
      { path: '/admin/users/:userId', element: <RequireAuth permissions={ADMIN_USER_PERMISSIONS}><AdminRoute /></RequireAuth> },
      { path: '/payment', element: <RequireAuth permissions={P.cartsCheckout}><PaymentRoute /></RequireAuth> },
      { path: '/order-confirmation/:orderId', element: <RequireAuth><OrderConfirmationRoute /></RequireAuth> },
      { path: '/pricing-calculator', element: <RequireAuth><PricingCalculatorRoute /></RequireAuth> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

const router = createBrowserRouter(routes);
export function AppRouter() { return <RouterProvider router={router} />; }
