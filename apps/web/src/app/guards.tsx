import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { ShieldAlert } from 'lucide-react';
import { useSession } from '../lib/session';
import { Button } from '../components/ui/button';
import { PageSpinner } from '../components/ui/feedback';

/**
 * Route guards (spec 000 §2, spec 002 §2): a spinner while the session or permissions load; no
 * signed-in user → /auth; signed in without the permission → /. `permissions` is a comma-separated
 * list and any one of them lets the user through. With `deniedMessage` a signed-in user without the permission sees
 * Access Denied with that text (e.g. the checkout's, spec 002 §6) instead of going to /.
 */
export function RequireAuth({
  children,
  permissions,
  deniedMessage,
}: {
  children: ReactNode;
  permissions?: string;
  deniedMessage?: string;
}) {
  const { status, me, hasAnyPermission } = useSession();
  if (status === 'loading' || (status === 'authenticated' && !me)) return <PageSpinner />;
  if (status === 'unauthenticated') return <Navigate to="/auth" replace />;
  if (permissions) {
    const codes = permissions
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    if (!hasAnyPermission(codes)) return deniedMessage ? <Denied message={deniedMessage} /> : <Navigate to="/" replace />;
  }
  return <>{children}</>;
}

/** Access Denied for a signed-in user without a route's permission: the route's text and a way back to the shop. */
function Denied({ message }: { message: string }) {
  return (
    <div className="mx-auto max-w-lg px-4 py-12 text-center" role="alert">
      <ShieldAlert className="mx-auto h-10 w-10 text-red-600" aria-hidden />
      <h1 className="mt-3 text-xl font-semibold text-stone-900">Access Denied</h1>
      <p className="mt-2 text-sm text-stone-600">{message}</p>
      <Button asChild className="mt-6">
        <Link to="/shop">Back to Shop</Link>
      </Button>
    </div>
  );
}
