import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useSession } from '../lib/session';
import { PageSpinner } from '../components/ui/feedback';

/**
 * Route guards (spec 000 §2, spec 002 §2): a spinner while the session or permissions load; no
 * signed-in user → /auth; signed in without the permission → /. `permissions` is a comma-separated
 * list and any one of them lets the user through.
 */
export function RequireAuth({ children, permissions }: { children: ReactNode; permissions?: string }) {
  const { status, me, hasAnyPermission } = useSession();
  if (status === 'loading' || (status === 'authenticated' && !me)) return <PageSpinner />;
  if (status === 'unauthenticated') return <Navigate to="/auth" replace />;
  if (permissions) {
    const codes = permissions
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    if (!hasAnyPermission(codes)) return <Navigate to="/" replace />;
  }
  return <>{children}</>;
}
