import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/feedback';
import { notify } from '@/components/ui/toaster';
import { useSession } from '@/lib/session';
import { pickBackground } from '../utils/backgrounds';
import { readRecoveryLink } from '../utils/recovery';
import { ForgotPasswordForm } from './forgot-password-form';
import { LoginForm } from './login-form';

/** Reset mode comes only from a mailed link: its form (and the problem codes it reads) loads on use (issue 15 §4). */
const ResetPasswordForm = lazy(async () => ({ default: (await import('./reset-password-form')).ResetPasswordForm }));
const InvalidResetLink = lazy(async () => ({ default: (await import('./reset-password-form')).InvalidResetLink }));

export type AuthMode = 'login' | 'forgot' | 'reset';

/**
 * The sign-in screen /auth (spec 000 §2) with its three modes. `?mode=login|forgot` picks the mode; a
 * recovery link (intent=recovery, or type=recovery with tokens, in the query or hash) switches to reset
 * mode, keeps the token in memory and cleans the URL back to /auth. A spinner shows until a recovery link is
 * read; a signed-in user not resetting a password goes to /. One of 14 backgrounds per visit.
 */
export function AuthScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const { status, signOut } = useSession();
  const [background] = useState(pickBackground);
  // Only a recovery link needs the effect below before the screen can show; any other URL is ready at once
  // (one render instead of spinner-then-form on the first load, issue 15 §4).
  const [ready, setReady] = useState(() => !readRecoveryLink(location.search, location.hash));
  const [recovery, setRecovery] = useState<{ token: string | null } | null>(null);
  const [signingIn, setSigningIn] = useState(false);
  const modeParam = new URLSearchParams(location.search).get('mode');

  useEffect(() => {
    const link = readRecoveryLink(location.search, location.hash);
    if (link) {
      setRecovery({ token: link.token });
      navigate('/auth', { replace: true });
    } else if (modeParam === 'login' || modeParam === 'forgot') {
      setRecovery(null);
    }
    setReady(true);
  }, [location.search, location.hash, modeParam, navigate]);

  const mode: AuthMode = recovery ? 'reset' : modeParam === 'forgot' ? 'forgot' : 'login';

  if (!ready || (status === 'loading' && mode !== 'reset')) return <PageSpinner />;
  if (status === 'authenticated' && mode !== 'reset' && !signingIn) return <Navigate to="/" replace />;

  const toLogin = () => navigate('/auth?mode=login');
  const toForgot = () => navigate('/auth?mode=forgot');

  const afterReset = async () => {
    if (status === 'authenticated') await signOut().catch(() => undefined);
    navigate('/auth?mode=login', { replace: true });
    notify({ title: 'Password updated successfully', description: 'Please log in with your new password.', variant: 'success' });
  };

  return (
    <div className="relative isolate flex min-h-[calc(100dvh-4rem)] items-center justify-center px-4 py-10 sm:py-16">
      <div
        aria-hidden
        data-testid="auth-background"
        className="absolute inset-0 -z-10 bg-stone-900 bg-cover bg-center"
        style={{ backgroundImage: `url(${background})` }}
      />
      <div aria-hidden className="absolute inset-0 -z-10 bg-gradient-to-b from-stone-950/10 via-transparent to-stone-950/30" />
      {mode === 'login' && <LoginForm onSigningIn={setSigningIn} onSignedIn={() => navigate('/shop', { replace: true })} />}
      {mode === 'forgot' && <ForgotPasswordForm onBackToLogin={toLogin} />}
      {mode === 'reset' && (
        <Suspense fallback={<PageSpinner />}>
          {recovery?.token ? (
            <ResetPasswordForm token={recovery.token} onDone={afterReset} onInvalidToken={() => setRecovery({ token: null })} />
          ) : (
            <InvalidResetLink onRequestNew={toForgot} />
          )}
        </Suspense>
      )}
    </div>
  );
}
