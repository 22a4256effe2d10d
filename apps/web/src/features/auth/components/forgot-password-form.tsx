import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { KeyRound, MailCheck } from 'lucide-react';
import type { PasswordRecoveryBody } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver';
import { requestPasswordRecovery } from '../api/request-password-recovery';
import { recoveryFailure } from '../utils/messages';
import { AuthCard } from './auth-card';

/** Validation with the contracts' passwordRecoveryBodySchema, loaded on the first submit. */
const recoveryResolver = lazyZodResolver<PasswordRecoveryBody>(async () => (await import('@/lib/schemas')).passwordRecoveryBodySchema);

/**
 * Forgot mode of /auth (spec 000 §2): email, Send reset link, Back to login; after sending, Check your
 * email with the address, spam advice, Try again and Back to login.
 */
export function ForgotPasswordForm({ onBackToLogin }: { onBackToLogin: () => void }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<PasswordRecoveryBody>({
    resolver: recoveryResolver,
    defaultValues: { email: '' },
  });

  const submit = handleSubmit(async (body) => {
    try {
      await requestPasswordRecovery(body);
      setSentTo(body.email);
    } catch (e) {
      notify({ ...recoveryFailure(e), variant: 'destructive' });
    }
  });

  if (sentTo) {
    return (
      <AuthCard icon={<MailCheck className="h-6 w-6" />} title="Check your email">
        <div className="space-y-4 text-center text-sm text-stone-700" role="status">
          <p>
            We sent a password reset link to <strong className="break-words font-semibold text-stone-900">{sentTo}</strong>.
          </p>
          <p className="text-stone-500">Didn&apos;t get it? Check your spam or junk folder. The link is valid for one hour.</p>
        </div>
        <div className="mt-6 grid gap-2">
          <Button type="button" variant="outline" size="lg" onClick={() => setSentTo(null)}>
            Try again
          </Button>
          <Button type="button" variant="ghost" size="lg" onClick={onBackToLogin}>
            Back to login
          </Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      icon={<KeyRound className="h-6 w-6" />}
      title="Forgot your password?"
      description="Enter the email address of your account and we will send you a link to reset your password."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field id="forgot-email" label="Email" error={errors.email?.message}>
          <Input
            {...describedBy('forgot-email', errors.email?.message)}
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            autoFocus
            {...register('email')}
          />
        </Field>
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
          {isSubmitting ? 'Sending...' : 'Send reset link'}
        </Button>
        <Button type="button" variant="ghost" size="lg" className="w-full" onClick={onBackToLogin}>
          Back to login
        </Button>
      </form>
    </AuthCard>
  );
}
