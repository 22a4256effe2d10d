import type { UseFormReturn } from 'react-hook-form';
import { ADMIN_USER_MESSAGES as M, type AdminUserDetail } from '@portal/contracts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field, Label, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import type { ProfileForm } from './use-edit-user';

/**
 * Edit User's Profile card (spec 002 §2): the Active account switch, the read-only email, first name (required),
 * last name, phone and the last login. Read-only, with a note, when the profile is edited elsewhere.
 */
export function EditUserProfileCard({
  user,
  form,
  isActive,
  editable,
}: {
  user: AdminUserDetail;
  form: UseFormReturn<ProfileForm>;
  isActive: boolean;
  editable: boolean;
}) {
  const {
    register,
    setValue,
    formState: { errors },
  } = form;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>Personal details and account status</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {!editable && (
          <p role="note" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            {M.profileElsewhere}
          </p>
        )}
        <div className="flex items-center justify-between gap-4 rounded-md border border-stone-200 p-3">
          <Label htmlFor="edit-user-active">Active account</Label>
          <Switch
            id="edit-user-active"
            checked={isActive}
            disabled={!editable}
            onCheckedChange={(on) => setValue('isActive', on, { shouldDirty: true })}
          />
        </div>
        <Field id="edit-user-email" label="Email Address/Login">
          <Input id="edit-user-email" type="email" value={user.email} readOnly className="bg-stone-50 text-stone-600" />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="edit-user-first-name" label="First Name *" error={errors.firstName?.message}>
            <Input
              {...describedBy('edit-user-first-name', errors.firstName?.message)}
              autoComplete="off"
              aria-required="true"
              readOnly={!editable}
              {...register('firstName')}
            />
          </Field>
          <Field id="edit-user-last-name" label="Last Name">
            <Input id="edit-user-last-name" autoComplete="off" readOnly={!editable} {...register('lastName')} />
          </Field>
        </div>
        <Field id="edit-user-phone" label="Phone Number">
          <Input
            id="edit-user-phone"
            type="tel"
            placeholder="(555) 123-4567"
            autoComplete="off"
            readOnly={!editable}
            {...register('phone')}
          />
        </Field>
        <p className="text-sm text-stone-600">
          Last login: {user.profile.lastLogin ? new Date(user.profile.lastLogin).toLocaleString() : 'Never'}
        </p>
      </CardContent>
    </Card>
  );
}
