import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { PROBLEM_CODES, AUTH_MESSAGES, PASSWORD_CHECKLIST, changePasswordBodySchema, type ChangePasswordBody } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { RequirementChecklist } from '@/components/ui/checklist';
import { Field, describedBy } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { changePassword } from '../api/change-password';

const EMPTY: ChangePasswordBody = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Password (spec 000 §2, §5, §8): current, new and confirm with the live checklist; a wrong current password is named. */
export function ChangePasswordForm() {
  const {
    register,
    handleSubmit,
    watch,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordBodySchema),
    defaultValues: EMPTY,
  });
  const newPassword = watch('newPassword') ?? '';

  const submit = handleSubmit(async (body) => {
    try {
      await changePassword(body);
      reset(EMPTY);
      notify({ title: 'Password updated', variant: 'success' });
    } catch (e) {
      if (e instanceof ApiError && e.code === PROBLEM_CODES.currentPasswordIncorrect) {
        setError('currentPassword', { message: AUTH_MESSAGES.currentPasswordIncorrect });
        notify({ title: 'Invalid password', description: AUTH_MESSAGES.currentPasswordIncorrect, variant: 'destructive' });
        return;
      }
      if (e instanceof ApiError) {
        const m = e.fieldError('newPassword');
        if (m) setError('newPassword', { message: m });
      }
      notify({ title: 'Password update failed', description: e instanceof Error ? e.message : undefined, variant: 'destructive' });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field id="password-current" label="Current Password" error={errors.currentPassword?.message}>
        <PasswordInput
          {...describedBy('password-current', errors.currentPassword?.message)}
          autoComplete="current-password"
          {...register('currentPassword')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="password-new" label="New Password" error={errors.newPassword?.message}>
          <PasswordInput
            {...describedBy('password-new', errors.newPassword?.message)}
            autoComplete="new-password"
            aria-describedby={errors.newPassword ? 'password-new-error password-checklist' : 'password-checklist'}
            {...register('newPassword')}
          />
        </Field>
        <Field id="password-confirm" label="Confirm New Password" error={errors.confirmPassword?.message}>
          <PasswordInput
            {...describedBy('password-confirm', errors.confirmPassword?.message)}
            autoComplete="new-password"
            {...register('confirmPassword')}
          />
        </Field>
      </div>
      <RequirementChecklist
        id="password-checklist"
        label="Password requirements"
        value={newPassword}
        requirements={PASSWORD_CHECKLIST}
        className="sm:grid-cols-2"
      />
      <div className="flex justify-end">
        <Button type="submit" loading={isSubmitting}>
          {isSubmitting ? 'Updating...' : 'Update Password'}
        </Button>
      </div>
    </form>
  );
}
