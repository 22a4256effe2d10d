import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { LogIn } from 'lucide-react';
import type { LoginBody } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Field, describedBy } from '@/components/ui/field';
import { Input, PasswordInput } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver';
import { useSession } from '@/lib/session';
import { loginFailure } from '../utils/messages';
import { AuthCard } from './auth-card';

/** Validation with the contracts' loginBodySchema, loaded on the first submit. */
const loginResolver = lazyZodResolver<LoginBody>(async () => (await import('@/lib/schemas')).loginBodySchema);

/**
 * Login mode of /auth (spec 000 §2): Welcome Back, Email and Password, Sign In (Signing in... while
 * busy), Forgot Password?. Validation with the contracts' loginBodySchema; failures toast 'Login Failed'.
 */
export function LoginForm({ onSigningIn, onSignedIn }: { onSigningIn?: (busy: boolean) => void; onSignedIn: () => void }) {
  const { signIn } = useSession();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginBody>({
    resolver: loginResolver,
    defaultValues: { email: '', password: '' },
  });

  const submit = handleSubmit(async ({ email, password }) => {
    onSigningIn?.(true);
    try {
      await signIn(email, password);
      onSignedIn();
    } catch (e) {
      onSigningIn?.(false);
      notify({ ...loginFailure(e), variant: 'destructive' });
    }
  });

  return (
    <AuthCard
      icon={<LogIn className="h-6 w-6" />}
      title="Welcome Back"
      description="Sign in to your account to place and track your orders."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field id="login-email" label="Email" error={errors.email?.message}>
          <Input
            {...describedBy('login-email', errors.email?.message)}
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            {...register('email')}
          />
        </Field>
        <Field id="login-password" label="Password" error={errors.password?.message}>
          <PasswordInput
            {...describedBy('login-password', errors.password?.message)}
            autoComplete="current-password"
            {...register('password')}
          />
        </Field>
        <div className="flex justify-end">
          <Link to="/auth?mode=forgot" className="rounded text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
            Forgot Password?
          </Link>
        </div>
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
          {isSubmitting ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
    </AuthCard>
  );
}
