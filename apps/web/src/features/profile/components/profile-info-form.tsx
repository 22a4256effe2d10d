import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { updateProfileBodySchema, type Profile } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { updateProfile } from '../api/update-profile';

type FormIn = z.input<typeof updateProfileBodySchema>;
type FormOut = z.output<typeof updateProfileBodySchema>;
const FIELDS = ['firstName', 'lastName', 'phone'] as const;

const valuesOf = (p: Profile): FormIn => ({ firstName: p.firstName ?? '', lastName: p.lastName ?? '', phone: p.phone ?? '' });

/** Profile Info (spec 000 §2, §5): first and last name required, phone optional, email read-only. */
export function ProfileInfoForm({ profile, onSaved }: { profile: Profile; onSaved: () => Promise<void> | void }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(updateProfileBodySchema),
    defaultValues: valuesOf(profile),
  });
  useEffect(() => {
    if (!isDirty) reset(valuesOf(profile));
  }, [profile, isDirty, reset]);

  const submit = handleSubmit(async (body) => {
    try {
      await updateProfile(body);
      reset({ firstName: body.firstName, lastName: body.lastName, phone: body.phone ?? '' });
      notify({ title: 'Profile updated', description: 'Your profile has been successfully updated.', variant: 'success' });
      await onSaved();
    } catch (e) {
      if (e instanceof ApiError)
        for (const f of FIELDS) {
          const m = e.fieldError(f);
          if (m) setError(f, { message: m });
        }
      notify({ title: 'Failed to update profile. Please try again.', variant: 'destructive' });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="profile-first-name" label="First Name" error={errors.firstName?.message}>
          <Input {...describedBy('profile-first-name', errors.firstName?.message)} autoComplete="given-name" {...register('firstName')} />
        </Field>
        <Field id="profile-last-name" label="Last Name" error={errors.lastName?.message}>
          <Input {...describedBy('profile-last-name', errors.lastName?.message)} autoComplete="family-name" {...register('lastName')} />
        </Field>
      </div>
      <Field id="profile-phone" label="Phone" hint="Optional" error={errors.phone?.message}>
        <Input
          {...describedBy('profile-phone', errors.phone?.message, true)}
          type="tel"
          autoComplete="tel"
          placeholder="(555) 123-4567"
          {...register('phone')}
        />
      </Field>
      <Field id="profile-email" label="Email" hint="Your sign-in email cannot be changed here.">
        <Input
          {...describedBy('profile-email', undefined, true)}
          type="email"
          value={profile.email}
          readOnly
          className="bg-stone-50 text-stone-600"
        />
      </Field>
      <div className="flex justify-end">
        <Button type="submit" loading={isSubmitting}>
          {isSubmitting ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
