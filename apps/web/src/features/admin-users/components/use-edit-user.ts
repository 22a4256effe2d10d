import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useForm, useWatch } from 'react-hook-form';
import { useSWRConfig } from 'swr';
import { ADMIN_USER_MESSAGES as M, type AdminRoleRef, type AdminUserDetail, type GrantRef, type ManageableOutlet } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import {
  addUserRole,
  deleteUser,
  removeUserGrant,
  type GrantPlaces,
  updateUserOutlets,
  updateUserProfile,
  userKeys,
} from '../api/admin-users';

/** Where Back, delete and Access Denied lead: the admin dashboard on its Users tab. */
export const USERS_TAB = { pathname: '/admin', state: { activeTab: 'users' } } as const;

/** The Profile card's fields (strings as typed; trimmed on save). */
export interface ProfileForm {
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
const isUsersList = (k: unknown) => typeof k === 'string' && k.includes('/admin/users?');

/**
 * Edit User's state and actions (spec 002 §2, §4, §5, §8): the profile form, the ticked outlets, roles added and
 * removed at once (rolled back on failure), Save Changes (outlets, then profile; a toast per failure) and delete.
 * `changed` is true when the profile or the ticked outlets differ from what was loaded or last saved.
 */
export function useEditUser(user: AdminUserDetail, outlets: ManageableOutlet[]) {
  const { mutate } = useSWRConfig();
  const keys = userKeys(user.id);
  const [loadedProfile, setLoadedProfile] = useState(() => profileOf(user));
  const form = useForm<ProfileForm>({ defaultValues: loadedProfile });
  const { getValues, reset, setError, clearErrors } = form;
  const values = useWatch({ control: form.control }) as ProfileForm;
  const [profileEditable, setProfileEditable] = useState(user.canEditProfile);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    reset(loadedProfile);
  }, [loadedProfile, reset]);
  const { sortedOutlets, manageable, setLoadedOutlets, selectedOutlets, outletIdsForRoles, outletsChanged, toggleOutlet, saveOutlets } =
    useTickedOutlets(user.id, outlets);
  const changed = !sameProfile(values, loadedProfile) || outletsChanged;

  const refresh = () => Promise.all([mutate(keys.detail), mutate(keys.outlets), mutate(isUsersList)]);
  const roles = useUserRoles(user, {
    refresh,
    onSaved: (saved) => {
      setProfileEditable(saved.canEditProfile);
      // An outlet role granted at the ticked outlets makes them the user's: they are saved now.
      const member = new Set(saved.outlets.map((o) => o.id));
      setLoadedOutlets((l) => new Set([...[...l].filter((id) => member.has(id) || !manageable.has(id)), ...member]));
    },
  });

  const saveProfile = async (v: ProfileForm) => {
    if (sameProfile(v, loadedProfile) || !profileEditable) return true;
    try {
      const saved = await updateUserProfile(user.id, {
        firstName: v.firstName.trim(),
        lastName: v.lastName.trim() || null,
        phone: v.phone.trim() || null,
        isActive: v.isActive,
      });
      setLoadedProfile(profileOf(saved));
      return true;
    } catch (e) {
      notify({ title: 'Error', description: `Failed to update profile: ${message(e)}`, variant: 'destructive' });
      return false;
    }
  };
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
      if (!(await saveOutlets()) || !(await saveProfile(v))) return;
      notify({ title: 'Success', description: M.updated, variant: 'success' });
      void refresh();
    } finally {
      setSaving(false);
    }
  };

  return {
    form,
    values,
    profileEditable,
    sortedOutlets,
    selectedOutlets,
    outletIdsForRoles,
    changed,
    saving,
    save,
    toggleOutlet,
    ...roles,
  };
}

/**
 * The outlets ticked under Outlet Assignments: the user's own ones loaded with the screen plus those picked from the
 * search (kept by id with name and canManage), the ticked ones sorted by name, the manageable ones, the ticked
 * manageable ones (where an outlet role goes), `toggleOutlet` (an unmanageable outlet is refused with a toast) and
 * `saveOutlets` (adds and removes the difference to what was loaded; false, with a toast, when it fails).
 */
function useTickedOutlets(userId: string, outlets: ManageableOutlet[]) {
  const [known, setKnown] = useState(() => new Map(outlets.map((o) => [o.outletId, o])));
  const [loadedOutlets, setLoadedOutlets] = useState(() => new Set(outlets.filter((o) => o.assigned).map((o) => o.outletId)));
  const [selectedOutlets, setSelectedOutlets] = useState(() => new Set(loadedOutlets));
  const sortedOutlets = useMemo(
    () =>
      [...selectedOutlets]
        .map((id) => known.get(id))
        .filter((o): o is ManageableOutlet => o !== undefined)
        .sort((a, b) => a.outletName.localeCompare(b.outletName)),
    [selectedOutlets, known],
  );
  const manageable = new Set([...known.values()].filter((o) => o.canManage).map((o) => o.outletId));
  const outletIdsForRoles = [...selectedOutlets].filter((id) => manageable.has(id));
  const outletsChanged = !sameSet(selectedOutlets, loadedOutlets);

  const toggleOutlet = (o: ManageableOutlet, on: boolean) => {
    if (!o.canManage) {
      notify({ title: 'Permission Denied', description: M.outletNotManageable, variant: 'destructive' });
      return;
    }
    if (on) setKnown((k) => (k.has(o.outletId) ? k : new Map(k).set(o.outletId, o)));
    setSelectedOutlets((s) => {
      const n = new Set(s);
      if (on) n.add(o.outletId);
      else n.delete(o.outletId);
      return n;
    });
  };

  const saveOutlets = async () => {
    const add = [...selectedOutlets].filter((id) => !loadedOutlets.has(id));
    const remove = [...loadedOutlets].filter((id) => !selectedOutlets.has(id));
    if (!add.length && !remove.length) return true;
    try {
      await updateUserOutlets(userId, add, remove);
    } catch (e) {
      notify({ title: 'Error', description: `Failed to update outlets: ${message(e)}`, variant: 'destructive' });
      return false;
    }
    setLoadedOutlets(new Set(selectedOutlets));
    return true;
  };

  return { sortedOutlets, manageable, setLoadedOutlets, selectedOutlets, outletIdsForRoles, outletsChanged, toggleOutlet, saveOutlets };
}

/** The roles the user holds, added and removed at once; the list rolls back when the call fails. */
function useUserRoles(
  user: AdminUserDetail,
  { refresh, onSaved }: { refresh: () => Promise<unknown>; onSaved: (saved: AdminUserDetail) => void },
) {
  const [assigned, setAssigned] = useState<GrantRef[]>(user.roles);
  const [rolesBusy, setRolesBusy] = useState(false);

  const applyRoles = async (next: GrantRef[], call: () => Promise<AdminUserDetail>) => {
    const before = assigned;
    setAssigned(next);
    setRolesBusy(true);
    try {
      const saved = await call();
      setAssigned(saved.roles);
      onSaved(saved);
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
  return { assigned, rolesBusy, addRole, removeRole };
}

/** Delete User behind its confirmation: on success a toast, the Users list refreshed and back to the Users tab. */
export function useDeleteUser(userId: string) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = async () => {
    setDeleting(true);
    try {
      await deleteUser(userId);
      notify({ title: 'Success', description: M.deleted, variant: 'success' });
      await mutate(isUsersList, undefined, { revalidate: true });
      navigate(USERS_TAB.pathname, { state: USERS_TAB.state });
    } catch (e) {
      const err = toApiError(e);
      notify({ title: 'Error', description: err.status ? err.message : M.deleteFailed, variant: 'destructive' });
      setDeleting(false);
      setConfirmOpen(false);
    }
  };
  return { confirmOpen, setConfirmOpen, deleting, remove };
}
