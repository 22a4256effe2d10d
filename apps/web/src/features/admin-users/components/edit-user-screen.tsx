import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useForm, useWatch } from 'react-hook-form';
import { useSWRConfig } from 'swr';
import { ArrowLeft, Plus, ShieldAlert, Trash2, X } from 'lucide-react';
import { ADMIN_USER_MESSAGES as M, type AdminRoleRef, type AdminUserDetail, type ManageableOutlet } from '@portal/contracts';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { PageSpinner } from '@/components/ui/feedback';
import { Field, Label, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import {
  addUserRole,
  deleteUser,
  removeUserRole,
  updateUserOutlets,
  updateUserProfile,
  useAdminUser,
  useAssignableRoles,
  useManageableOutlets,
  userKeys,
} from '../api/admin-users';

/** Where Back, delete and Access Denied lead: the admin dashboard on its Users tab. */
const USERS_TAB = { pathname: '/admin', state: { activeTab: 'users' } } as const;

interface ProfileForm {
  firstName: string;
  lastName: string;
  phone: string;
  isActive: boolean;
}
const profileOf = (u: AdminUserDetail): ProfileForm => ({
  firstName: u.profile.firstName ?? '',
  lastName: u.profile.lastName ?? '',
  phone: u.profile.phone ?? '',
  isActive: u.profile.isActive,
});
const sameProfile = (a: ProfileForm, b: ProfileForm) =>
  a.firstName.trim() === b.firstName.trim() &&
  a.lastName.trim() === b.lastName.trim() &&
  a.phone.trim() === b.phone.trim() &&
  a.isActive === b.isActive;
const sameSet = (a: Set<number>, b: Set<number>) => a.size === b.size && [...a].every((x) => b.has(x));
const message = (e: unknown) => toApiError(e).message;

/** Access Denied (spec 002 §2 Edit User) with 'Back to Admin'. */
export function AccessDenied({ message: text }: { message: string }) {
  const navigate = useNavigate();
  return (
    <div className="mx-auto max-w-lg px-4 py-12 text-center">
      <ShieldAlert className="mx-auto h-10 w-10 text-red-600" aria-hidden />
      <h1 className="mt-3 text-xl font-semibold text-stone-900">Access Denied</h1>
      <p className="mt-2 text-sm text-stone-600">{text}</p>
      <Button className="mt-6" onClick={() => navigate('/admin')}>
        Back to Admin
      </Button>
    </div>
  );
}

/**
 * Edit User (/admin/users/{userId}; spec 002 §2, §4, §5, §8): profile with the Active account switch,
 * outlet assignments (unmanageable ones read-only), roles added and removed at once (rolled back on
 * failure), Save Changes only when something changed, and the Danger Zone for super administrators.
 * `viewerId` / `viewerIsSuperAdmin` come from the session: a non-super administrator never edits themselves.
 */
export function EditUserScreen({
  userId,
  viewerId,
  viewerIsSuperAdmin,
}: {
  userId: string;
  viewerId: string;
  viewerIsSuperAdmin: boolean;
}) {
  const self = userId === viewerId && !viewerIsSuperAdmin;
  const user = useAdminUser(self ? null : userId);
  const outlets = useManageableOutlets(self ? null : userId);
  const roles = useAssignableRoles(self ? null : userId);

  if (self) return <AccessDenied message={M.selfEdit} />;
  if (user.isLoading || outlets.isLoading || roles.isLoading) return <PageSpinner text={M.loadingUser} />;
  if (user.error || !user.data || !user.data.canEdit) {
    if (user.error && user.error.status !== 404 && user.error.status !== 403)
      console.error('Edit User: failed to load the user', user.error);
    return <AccessDenied message={M.notEditable} />;
  }
  if (outlets.error) console.error('Edit User: failed to load outlets', outlets.error);
  if (roles.error) console.error('Edit User: failed to load roles', roles.error);
  return <EditUserForm key={user.data.id} user={user.data} outlets={outlets.data?.items ?? []} assignable={roles.data?.items ?? []} />;
}

function EditUserForm({ user, outlets, assignable }: { user: AdminUserDetail; outlets: ManageableOutlet[]; assignable: AdminRoleRef[] }) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const keys = userKeys(user.id);
  const [loadedProfile, setLoadedProfile] = useState(() => profileOf(user));
  const {
    register,
    control,
    setValue,
    getValues,
    reset,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<ProfileForm>({ defaultValues: loadedProfile });
  const values = useWatch({ control }) as ProfileForm;
  const [loadedOutlets, setLoadedOutlets] = useState(() => new Set(outlets.filter((o) => o.assigned).map((o) => o.outletId)));
  const [selectedOutlets, setSelectedOutlets] = useState(() => new Set(loadedOutlets));
  const [assigned, setAssigned] = useState<AdminRoleRef[]>(user.roles);
  const [roleToAdd, setRoleToAdd] = useState('');
  const [saving, setSaving] = useState(false);
  const [rolesBusy, setRolesBusy] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    reset(loadedProfile);
  }, [loadedProfile, reset]);
  const sortedOutlets = useMemo(() => [...outlets].sort((a, b) => a.outletName.localeCompare(b.outletName)), [outlets]);
  const addable = assignable.filter((r) => !assigned.some((a) => a.id === r.id));
  const changed = !sameProfile(values, loadedProfile) || !sameSet(selectedOutlets, loadedOutlets);
  const name = user.fullName ?? user.email;

  const refresh = () =>
    Promise.all([mutate(keys.detail), mutate(keys.outlets), mutate((k) => typeof k === 'string' && k.includes('/admin/users?'))]);

  const toggleOutlet = (o: ManageableOutlet, on: boolean) => {
    if (!o.canManage) {
      notify({ title: 'Permission Denied', description: M.outletNotManageable, variant: 'destructive' });
      return;
    }
    setSelectedOutlets((s) => {
      const n = new Set(s);
      if (on) n.add(o.outletId);
      else n.delete(o.outletId);
      return n;
    });
  };

  const applyRoles = async (next: AdminRoleRef[], call: () => Promise<AdminUserDetail>) => {
    const before = assigned;
    setAssigned(next);
    setRolesBusy(true);
    try {
      const saved = await call();
      setAssigned(saved.roles);
      void refresh();
    } catch (e) {
      setAssigned(before);
      notify({ title: 'Error', description: `Failed to update roles: ${message(e)}`, variant: 'destructive' });
    } finally {
      setRolesBusy(false);
    }
  };
  const addRole = () => {
    const role = assignable.find((r) => String(r.id) === roleToAdd);
    if (!role) return;
    setRoleToAdd('');
    void applyRoles([...assigned, role], () => addUserRole(user.id, role.id));
  };
  const removeRole = (role: AdminRoleRef) =>
    void applyRoles(
      assigned.filter((r) => r.id !== role.id),
      () => removeUserRole(user.id, role.id),
    );

  const save = async () => {
    const v = getValues();
    if (!v.firstName.trim()) {
      setError('firstName', { message: M.firstNameRequired });
      notify({ title: 'Validation Error', description: M.firstNameRequired, variant: 'destructive' });
      return;
    }
    clearErrors();
    setSaving(true);
    try {
      const add = [...selectedOutlets].filter((id) => !loadedOutlets.has(id));
      const remove = [...loadedOutlets].filter((id) => !selectedOutlets.has(id));
      if (add.length || remove.length) {
        try {
          await updateUserOutlets(user.id, add, remove);
        } catch (e) {
          notify({ title: 'Error', description: `Failed to update outlets: ${message(e)}`, variant: 'destructive' });
          return;
        }
        setLoadedOutlets(new Set(selectedOutlets));
      }
      if (!sameProfile(v, loadedProfile)) {
        try {
          const saved = await updateUserProfile(user.id, {
            firstName: v.firstName.trim(),
            lastName: v.lastName.trim() || null,
            phone: v.phone.trim() || null,
            isActive: v.isActive,
          });
          setLoadedProfile(profileOf(saved));
        } catch (e) {
          notify({ title: 'Error', description: `Failed to update profile: ${message(e)}`, variant: 'destructive' });
          return;
        }
      }
      notify({ title: 'Success', description: M.updated, variant: 'success' });
      void refresh();
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    setDeleting(true);
    try {
      await deleteUser(user.id);
      notify({ title: 'Success', description: M.deleted, variant: 'success' });
      await mutate((k) => typeof k === 'string' && k.includes('/admin/users?'), undefined, { revalidate: true });
      navigate(USERS_TAB.pathname, { state: USERS_TAB.state });
    } catch (e) {
      const err = toApiError(e);
      notify({ title: 'Error', description: err.status ? err.message : M.deleteFailed, variant: 'destructive' });
      setDeleting(false);
      setConfirmOpen(false);
    }
  };

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-6 sm:py-8">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <Button
            variant="ghost"
            size="icon"
            aria-label="Back to users"
            onClick={() => navigate(USERS_TAB.pathname, { state: USERS_TAB.state })}
          >
            <ArrowLeft className="h-5 w-5" aria-hidden />
          </Button>
          <div className="min-w-0">
            <h1 className="text-2xl font-semibold text-stone-900">Edit User</h1>
            <p className="truncate text-sm text-stone-600">{name}</p>
          </div>
        </div>
        <Button onClick={() => void save()} disabled={!changed || saving} loading={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </header>

      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
          <CardDescription>Personal details and account status</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex items-center justify-between gap-4 rounded-md border border-stone-200 p-3">
            <Label htmlFor="edit-user-active">Active account</Label>
            <Switch
              id="edit-user-active"
              checked={values.isActive}
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
                {...register('firstName')}
              />
            </Field>
            <Field id="edit-user-last-name" label="Last Name">
              <Input id="edit-user-last-name" autoComplete="off" {...register('lastName')} />
            </Field>
          </div>
          <Field id="edit-user-phone" label="Phone Number">
            <Input id="edit-user-phone" type="tel" placeholder="(555) 123-4567" autoComplete="off" {...register('phone')} />
          </Field>
          <p className="text-sm text-stone-600">
            Last login: {user.profile.lastLogin ? new Date(user.profile.lastLogin).toLocaleString() : 'Never'}
          </p>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Outlet Assignments</CardTitle>
          <CardDescription>Manage outlet assignments for this user</CardDescription>
        </CardHeader>
        <CardContent>
          {sortedOutlets.length === 0 ? (
            <p className="text-sm text-stone-500">No outlets available</p>
          ) : (
            <ul className="divide-y divide-stone-100">
              {sortedOutlets.map((o) => {
                const id = `edit-user-outlet-${o.outletId}`;
                return (
                  <li key={o.outletId} className="flex items-start gap-3 py-2.5">
                    <Checkbox
                      id={id}
                      className="mt-0.5"
                      checked={selectedOutlets.has(o.outletId)}
                      disabled={!o.canManage}
                      onCheckedChange={(c) => toggleOutlet(o, c === true)}
                      aria-describedby={o.canManage ? undefined : `${id}-hint`}
                    />
                    <div className="min-w-0">
                      <Label htmlFor={id} className={o.canManage ? 'cursor-pointer' : 'text-stone-500'}>
                        {o.outletName} <span className="font-normal text-stone-500">({o.outletCode})</span>
                        {!o.canManage && <span className="ml-1 font-normal text-stone-500">(read-only)</span>}
                      </Label>
                      {!o.canManage && (
                        <p id={`${id}-hint`} className="text-xs text-stone-500">
                          {M.outletReadOnlyHint}
                        </p>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Role Assignments</CardTitle>
          <CardDescription>Manage the roles assigned to this user</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex gap-2">
            <div className="flex-1">
              <Label htmlFor="edit-user-role-add" className="sr-only">
                Role to add
              </Label>
              <Select id="edit-user-role-add" value={roleToAdd} onChange={(e) => setRoleToAdd(e.target.value)} disabled={rolesBusy}>
                <option value="">Select role to add...</option>
                {addable.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name ?? r.code}
                  </option>
                ))}
              </Select>
            </div>
            <Button variant="outline" size="icon" aria-label="Add role" onClick={addRole} disabled={!roleToAdd || rolesBusy}>
              <Plus className="h-4 w-4" aria-hidden />
            </Button>
          </div>
          {assigned.length === 0 ? (
            <p className="text-sm text-stone-500">No roles assigned</p>
          ) : (
            <ul className="space-y-2" aria-label="Assigned roles">
              {assigned.map((r) => (
                <li key={r.id} className="flex items-start justify-between gap-3 rounded-md border border-stone-200 p-3">
                  <div className="min-w-0">
                    <p className="text-sm font-medium text-stone-900">{r.name ?? r.code}</p>
                    {r.description && <p className="text-xs text-stone-500">{r.description}</p>}
                  </div>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove ${r.name ?? r.code}`}
                    onClick={() => removeRole(r)}
                    disabled={rolesBusy || !assignable.some((a) => a.id === r.id)}
                  >
                    <X className="h-4 w-4" aria-hidden />
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      {user.canDelete && (
        <Card className="border-red-200">
          <CardHeader>
            <CardTitle className="text-red-700">Danger Zone</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-stone-600">Permanently delete this user and all associated data. This action cannot be undone.</p>
            <Button variant="destructive" onClick={() => setConfirmOpen(true)} loading={deleting}>
              <Trash2 className="h-4 w-4" aria-hidden />
              {deleting ? 'Deleting...' : 'Delete User'}
            </Button>
          </CardContent>
        </Card>
      )}
      <AlertDialog
        open={confirmOpen}
        onOpenChange={(o) => {
          if (!deleting) setConfirmOpen(o);
        }}
        title="Are you absolutely sure?"
        description={<DeleteText name={name} email={user.email} />}
        action={
          <Button variant="destructive" onClick={() => void remove()} loading={deleting}>
            {deleting ? 'Deleting...' : 'Yes, delete user'}
          </Button>
        }
      />
    </div>
  );
}

function DeleteText({ name, email }: { name: string; email: string }): ReactNode {
  return (
    <p>
      This will permanently delete <strong>{name}</strong> ({email}) and remove all of their data: profile, sessions, carts, role and outlet
      assignments and pending invitations. Their orders are kept as “Deleted user”.
    </p>
  );
}
