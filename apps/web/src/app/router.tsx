import { Suspense, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Navigate, useRoutes } from 'react-router-dom';
import { PERMISSIONS, SCREEN_TEXTS } from '@portal/contracts';
import { AppLayout } from './layout';
import { RequireAuth } from './guards';
import { HomeRoute } from './routes/home';
import { NotFoundRoute } from './routes/not-found';
import { PageSpinner } from '../components/ui/feedback';
import { screenModulesOf } from './screen-modules';
import { lazyNamed } from '../lib/lazy-named';

/** The lazy screens' loaders by their source module (SCREEN_MODULES names them), for preloadScreen. */
const SCREEN_LOADERS = new Map<string, () => Promise<unknown>>();

/**
 * Starts loading the screen of `pathname` now (main.tsx, at start when signed in): its chunk downloads while the
 * session is refreshed instead of after the guard lets it render — one round trip less before the page shows.
 * The paths are SCREEN_MODULES' (the API preloads the same chunks in the HTML of a signed-in page load).
 */
export function preloadScreen(pathname: string): void {
  const screen = screenModulesOf(pathname);
  const load = screen && SCREEN_LOADERS.get(screen.modules[0]);
  if (load) void load().catch(() => undefined);
}

/**
 * Screens load on first visit (code splitting), with the page spinner meanwhile; `module` (its source path, as in
 * SCREEN_MODULES) registers it for preloadScreen. A screen preloaded before it mounts renders at once (lazyNamed).
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K, module?: string) {
  const Screen = lazyNamed(load, name);
  if (module) SCREEN_LOADERS.set(module, Screen.preload);
  return function Page(): ReactNode {
    return (
      <Suspense fallback={<PageSpinner />}>
        <Screen />
      </Suspense>
    );
  };
}
// The sign-in screen is a lazy chunk too: signed-in page loads do not carry its forms (react-hook-form); signed-out
// page loads get it preloaded in the HTML (apps/api/src/http/spa.ts) and by main.tsx.
const AuthRoute = page(() => import('./routes/auth'), 'AuthRoute', 'src/app/routes/auth.tsx');
const ProfileRoute = page(() => import('./routes/profile'), 'ProfileRoute', 'src/app/routes/profile.tsx');
const CartRoute = page(() => import('./routes/cart'), 'CartRoute', 'src/app/routes/cart.tsx');
const StoreOrdersRoute = page(() => import('./routes/store-orders'), 'StoreOrdersRoute', 'src/app/routes/store-orders.tsx');
const OrderHistoryRoute = page(() => import('./routes/order-history'), 'OrderHistoryRoute', 'src/app/routes/order-history.tsx');
const ShopRoute = page(() => import('./routes/shop'), 'ShopRoute', 'src/app/routes/shop.tsx');
const AdminRoute = page(() => import('./routes/admin/admin-dashboard'), 'AdminRoute', 'src/app/routes/admin/admin-dashboard.tsx');
const StoreEditorRoute = page(() => import('../features/admin-stores'), 'StoreEditorRoute', 'src/features/admin-stores/index.ts');
const EditUserRoute = page(() => import('./routes/admin/edit-user'), 'EditUserRoute', 'src/app/routes/admin/edit-user.tsx');
const PaymentRoute = page(() => import('./routes/payment'), 'PaymentRoute', 'src/app/routes/payment.tsx');
const OrderConfirmationRoute = page(
  () => import('./routes/order-confirmation'),
  'OrderConfirmationRoute',
  'src/app/routes/order-confirmation.tsx',
);
const PricingCalculatorRoute = page(
  () => import('./routes/pricing-calculator'),
  'PricingCalculatorRoute',
  'src/app/routes/pricing-calculator.tsx',
);
const InvitationAcceptRoute = page(() => import('./routes/invitation-accept'), 'InvitationAcceptRoute');
const OrderGuidesRoute = page(() => import('./routes/ordering'), 'OrderGuidesRoute', 'src/app/routes/ordering.tsx');
const QuickOrderRoute = page(() => import('./routes/ordering'), 'QuickOrderRoute');
const SuggestedOrderRoute = page(() => import('./routes/ordering'), 'SuggestedOrderRoute');

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
      {
        path: '/profile',
        element: (
          <RequireAuth>
            <ProfileRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/cart',
        element: (
          <RequireAuth>
            <CartRoute />
          </RequireAuth>
        ),
      },
      // Store managers see their stores' orders, outlet managers their outlets' (spec 001 §2, issue 9 §6).
      {
        path: '/orders',
        element: (
          <RequireAuth permissions={`${P.ordersStoreManage},${P.ordersOutletManage}`}>
            <StoreOrdersRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/order-history',
        element: (
          <RequireAuth>
            <OrderHistoryRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/shop',
        element: (
          <RequireAuth>
            <ShopRoute />
          </RequireAuth>
        ),
      },
      // The licensee's ordering week (issue 27): for those who may use a cart.
      {
        path: '/order-guides',
        element: (
          <RequireAuth permissions={P.cartsUse}>
            <OrderGuidesRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/quick-order',
        element: (
          <RequireAuth permissions={P.cartsUse}>
            <QuickOrderRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/suggested-order',
        element: (
          <RequireAuth permissions={P.cartsUse}>
            <SuggestedOrderRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/admin',
        element: (
          <RequireAuth permissions={P.uiShowAdminMenu}>
            <AdminRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/admin/store/:id',
        element: (
          <RequireAuth permissions={`${P.storesAdmin},${P.storesSuperAdmin}`}>
            <StoreEditorRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/admin/users/:userId',
        element: (
          <RequireAuth permissions={ADMIN_USER_PERMISSIONS}>
            <EditUserRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/payment',
        element: (
          <RequireAuth permissions={P.cartsCheckout} deniedMessage={SCREEN_TEXTS.checkoutDenied}>
            <PaymentRoute />
          </RequireAuth>
        ),
      },
      {
        // The checkout starts from the cart (a checkout session, then /payment); /checkout says who may not.
        path: '/checkout',
        element: (
          <RequireAuth permissions={P.cartsCheckout} deniedMessage={SCREEN_TEXTS.checkoutDenied}>
            <Navigate to="/cart" replace />
          </RequireAuth>
        ),
      },
      {
        path: '/order-confirmation/:orderId',
        element: (
          <RequireAuth>
            <OrderConfirmationRoute />
          </RequireAuth>
        ),
      },
      {
        path: '/pricing-calculator',
        element: (
          <RequireAuth>
            <PricingCalculatorRoute />
          </RequireAuth>
        ),
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

function AppRoutes() {
  return useRoutes(routes);
}
/**
 * A plain history router: the app uses no loaders, actions, fetchers or blockers, and the data router
 * (createBrowserRouter) added 54 KB of script, 17 KB gzipped, to every first load (issue 15 §4).
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
