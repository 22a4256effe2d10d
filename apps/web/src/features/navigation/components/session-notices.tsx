import { useEffect } from 'react';
import { AUTH_MESSAGES } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { SIGNED_OUT_EVENT, useSession } from '@/lib/session';
import { clearMenuSections } from '../utils/menu-state';

/**
 * Session toasts: 'Authentication Error' when the session could not be initialised (spec 000 §8), the
 * expiry notice when a refresh fails; every sign-out forgets the menu's expanded sections.
 */
export function useSessionNotices() {
  const { initError } = useSession();
  useEffect(() => {
    if (initError) notify({ title: 'Authentication Error', description: 'Failed to initialize authentication.', variant: 'destructive' });
  }, [initError]);
  useEffect(() => {
    const onOut = (e: Event) => {
      clearMenuSections();
      if ((e as CustomEvent<{ reason?: string }>).detail?.reason === 'expired') {
        notify({ title: AUTH_MESSAGES.sessionExpired, variant: 'destructive' });
      }
    };
    window.addEventListener(SIGNED_OUT_EVENT, onOut);
    return () => window.removeEventListener(SIGNED_OUT_EVENT, onOut);
  }, []);
}
