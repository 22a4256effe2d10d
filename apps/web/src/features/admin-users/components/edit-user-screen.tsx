import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useForm, useWatch } from 'react-hook-form';
import { useSWRConfig } from 'swr';
import { ArrowLeft, ShieldAlert, Trash2 } from 'lucide-react';
import {
  ADMIN_USER_MESSAGES as M,
  type AdminRoleRef,
  type AdminUserDetail,
  type AssignableRoles,
  type GrantRef,
  type ManageableOutlet,
} from '@portal/contracts';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/feedback';
import { Field, Label, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { OutletAssignmentsCard } from './outlet-assignments-card';
import { RoleAssignmentsCard } from './role-assignments-card';
import {
  addUserRole,
  deleteUser,
  removeUserGrant,
  type GrantPlaces,
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
  return (
    <EditUserForm
      key={user.data.id}
      user={user.data}
      outlets={outlets.data?.items ?? []}
      assignable={roles.data ?? { items: [], stores: [], boards: [] }}
    />
  );
}

function EditUserForm({ user, outlets, assignable }: { user: AdminUserDetail; outlets: ManageableOutlet[]; assignable: AssignableRoles }) {
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
  const [assigned, setAssigned] = useState<GrantRef[]>(user.roles);
  const [profileEditable, setProfileEditable] = useState(user.canEditProfile);
  const [saving, setSaving] = useState(false);
  const [rolesBusy, setRolesBusy] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    reset(loadedProfile);
  }, [loadedProfile, reset]);
  const sortedOutlets = useMemo(() => [...outlets].sort((a, b) => a.outletName.localeCompare(b.outletName)), [outlets]);
  const manageable = new Set(outlets.filter((o) => o.canManage).map((o) => o.outletId));
  const outletIdsForRoles = [...selectedOutlets].filter((id) => manageable.has(id));
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

  const applyRoles = async (next: GrantRef[], call: () => Promise<AdminUserDetail>) => {
    const before = assigned;
    setAssigned(next);
    setRolesBusy(true);
    try {
      const saved = await call();
      setAssigned(saved.roles);
      setProfileEditable(saved.canEditProfile);
      // An outlet role granted at the ticked outlets makes them the user's: they are saved now.
      const member = new Set(saved.outlets.map((o) => o.id));
      setLoadedOutlets((l) => new Set([...[...l].filter((id) => member.has(id) || !manageable.has(id)), ...member]));
      void refresh();
    } catch (e) {
      setAssigned(before);
      notify({ title: 'Error', description: `Failed to update roles: ${message(e)}`, variant: 'destructive' });
    } finally {
      setRolesBusy(false);
    }
  };
  const addRole = (role: AdminRoleRef, places: GrantPlaces) => {
    const ids = places.outletIds ?? places.storeIds ?? places.boardIds ?? [null];
    const pending: GrantRef[] = ids.map((scopeId) => ({
      id: role.id,
      roleId: role.id,
      code: role.code,
      name: role.name,
      description: role.description,
      level: role.level,
      scopeType: role.scopeType,
      scopeId,
      scopeName: '…',
      editable: true,
    }));
    void applyRoles([...assigned, ...pending], () => addUserRole(user.id, role.id, places));
  };
  const removeRole = (grant: GrantRef) =>
    void applyRoles(
      assigned.filter((g) => g !== grant),
      () => removeUserGrant(user.id, grant),
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
      if (!sameProfile(v, loadedProfile) && profileEditable) {
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
          {!profileEditable && (
            <p role="note" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              {M.profileElsewhere}
            </p>
          )}
          <div className="flex items-center justify-between gap-4 rounded-md border border-stone-200 p-3">
            <Label htmlFor="edit-user-active">Active account</Label>
            <Switch
              id="edit-user-active"
              checked={values.isActive}
              disabled={!profileEditable}
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
                readOnly={!profileEditable}
                {...register('firstName')}
              />
            </Field>
            <Field id="edit-user-last-name" label="Last Name">
              <Input id="edit-user-last-name" autoComplete="off" readOnly={!profileEditable} {...register('lastName')} />
            </Field>
          </div>
          <Field id="edit-user-phone" label="Phone Number">
            <Input
              id="edit-user-phone"
              type="tel"
              placeholder="(555) 123-4567"
              autoComplete="off"
              readOnly={!profileEditable}
              {...register('phone')}
            />
          </Field>
          <p className="text-sm text-stone-600">
            Last login: {user.profile.lastLogin ? new Date(user.profile.lastLogin).toLocaleString() : 'Never'}
          </p>
        </CardContent>
      </Card>

      <OutletAssignmentsCard outlets={sortedOutlets} selected={selectedOutlets} onToggle={toggleOutlet} />

      <RoleAssignmentsCard
        grants={assigned}
        assignable={assignable}
        outletIdsForRoles={outletIdsForRoles}
        busy={rolesBusy}
        onAdd={addRole}
        onRemove={removeRole}
      />

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
