import { useForm, type Resolver } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { LogIn } from 'lucide-react';
import { AUTH_MESSAGES } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Field, describedBy } from '@/components/ui/field';
import { Input, PasswordInput } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { useSession } from '@/lib/session';
import { loginFailure } from '../utils/messages';
import { readIdentifier, type SignInValues } from '../utils/sign-in-identifier';
import { AuthCard } from './auth-card';

/** The sign-in rules of spec 000 §5 without zod (the first page stays light): identifier and password required. */
const loginResolver: Resolver<SignInValues> = async (values) => {
  const id = readIdentifier(values.login);
  const errors: Record<string, { type: string; message: string }> = {};
  if ('error' in id) errors.login = { type: 'validate', message: id.error };
  if (!values.password) errors.password = { type: 'required', message: AUTH_MESSAGES.passwordRequired };
  return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
};

/**
 * Login mode of /auth (spec 000 §2, issue 26 §7): Welcome Back, one "Email or phone" field (an @ makes it an
 * email, else a phone number) and Password, Sign In (Signing in... while busy), Forgot Password?.
 * Failures toast 'Login Failed' with the server's message.
 */
export function LoginForm({ onSigningIn, onSignedIn }: { onSigningIn?: (busy: boolean) => void; onSignedIn: () => void }) {
  const { signIn } = useSession();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({ resolver: loginResolver, defaultValues: { login: '', password: '' } });

  const submit = handleSubmit(async ({ login, password }) => {
    onSigningIn?.(true);
    try {
      const id = readIdentifier(login);
      await signIn('email' in id ? id.email : 'phone' in id ? id.phone : login, password);
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
        <Field id="login-email" label="Email or phone" error={errors.login?.message}>
          <Input
            {...describedBy('login-email', errors.login?.message)}
            type="text"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="you@example.com or (515) 555-0100"
            {...register('login')}
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
