import { Navigate, useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/feedback';
import { useSession } from '@/lib/session';
import { hasRecoveryType } from '@/features/auth/utils/recovery';

/**
 * The root path (spec 000 §2): a recovery link goes to /auth (with its parameters); otherwise, once the
 * session is known, /shop when signed in and /auth when not. A spinner shows while loading.
 */
export function HomeRoute() {
  const { search, hash } = useLocation();
  const { status } = useSession();
  if (hasRecoveryType(search, hash)) return <Navigate to={`/auth${search}${hash}`} replace />;
  if (status === 'loading') return <PageSpinner />;
  return <Navigate to={status === 'authenticated' ? '/shop' : '/auth'} replace />;
}
