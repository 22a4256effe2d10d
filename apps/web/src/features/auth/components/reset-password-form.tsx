import { useForm } from 'react-hook-form';
import { Link2Off, LockKeyhole } from 'lucide-react';
import { PROBLEM_CODES, AUTH_MESSAGES, PASSWORD_CHECKLIST, type PasswordResetBody } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { RequirementChecklist } from '@/components/ui/checklist';
import { Field, describedBy } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-error';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver';
import { resetPassword } from '../api/reset-password';
import { resetFailure } from '../utils/messages';
import { AuthCard } from './auth-card';

/** Validation with the contracts' passwordResetBodySchema, loaded on the first validation. */
const resetResolver = lazyZodResolver<PasswordResetBody>(async () => (await import('@/lib/schemas')).passwordResetBodySchema);

/** Invalid or Expired Reset Link, with Request new reset link (back to forgot mode). */
export function InvalidResetLink({ onRequestNew }: { onRequestNew: () => void }) {
  return (
    <AuthCard icon={<Link2Off className="h-6 w-6" />} title="Invalid or Expired Reset Link" description={AUTH_MESSAGES.resetLinkInvalid}>
      <Button type="button" size="lg" className="w-full" onClick={onRequestNew}>
        Request new reset link
      </Button>
    </AuthCard>
  );
}

/**
 * Reset mode of /auth (spec 000 §2): new and confirm password with the live checklist, Update Password.
 * Posts the link's token; an unusable token shows the invalid-link panel through `onInvalidToken`.
 */
export function ResetPasswordForm({
  token,
  onDone,
  onInvalidToken,
}: {
  token: string;
  onDone: () => Promise<void> | void;
  onInvalidToken: () => void;
}) {
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasswordResetBody>({
    resolver: resetResolver,
    defaultValues: { token, password: '', confirmPassword: '' },
  });
  const password = watch('password') ?? '';

  const submit = handleSubmit(async (body) => {
    try {
      await resetPassword(body);
      await onDone();
    } catch (e) {
      notify({ ...resetFailure(e), variant: 'destructive' });
      if (e instanceof ApiError) {
        if (e.code === PROBLEM_CODES.resetTokenInvalid) onInvalidToken();
        const pw = e.fieldError('password');
        if (pw) setError('password', { message: pw });
      }
    }
  });

  return (
    <AuthCard icon={<LockKeyhole className="h-6 w-6" />} title="Reset Password" description="Choose a new password for your account.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field id="reset-password" label="New Password" error={errors.password?.message}>
          <PasswordInput
            {...describedBy('reset-password', errors.password?.message)}
            autoComplete="new-password"
            aria-describedby={errors.password ? 'reset-password-error reset-checklist' : 'reset-checklist'}
            {...register('password')}
          />
        </Field>
        <RequirementChecklist id="reset-checklist" label="Password requirements" value={password} requirements={PASSWORD_CHECKLIST} />
        <Field id="reset-confirm" label="Confirm Password" error={errors.confirmPassword?.message}>
          <PasswordInput
            {...describedBy('reset-confirm', errors.confirmPassword?.message)}
            autoComplete="new-password"
            {...register('confirmPassword')}
          />
        </Field>
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
          {isSubmitting ? 'Updating...' : 'Update Password'}
        </Button>
      </form>
    </AuthCard>
  );
}
