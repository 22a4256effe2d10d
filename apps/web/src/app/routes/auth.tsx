import { AuthScreen } from '@/features/auth/components/auth-screen';

/** /auth: sign in, forgot password and reset password (spec 000 §2). */
export function AuthRoute() {
  return <AuthScreen />;
}
