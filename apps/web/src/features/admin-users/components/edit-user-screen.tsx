import { useNavigate } from 'react-router-dom';
import { ArrowLeft, ShieldAlert } from 'lucide-react';
import {
  ADMIN_USER_MESSAGES as M,
  SCREEN_TEXTS,
  type AdminUserDetail,
  type AssignableRoles,
  type ManageableOutlet,
} from '@portal/contracts';
import { StickySaveBar } from '@/components/admin/sticky-save-bar';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/feedback';
import { EditUserDangerZone } from './edit-user-danger-zone';
import { EditUserProfileCard } from './edit-user-profile-card';
import { OutletAssignmentsCard } from './outlet-assignments-card';
import { RoleAssignmentsCard } from './role-assignments-card';
import { USERS_TAB, useEditUser } from './use-edit-user';
import { useAdminUser, useAssignableRoles, useManageableOutlets } from '../api/admin-users';

/** Access Denied (spec 002 §2 Edit User) with 'Back to Admin'; `title` 'User not found' for a missing or malformed id. */
export function AccessDenied({ message: text, title = 'Access Denied' }: { message: string; title?: string }) {
  const navigate = useNavigate();
  return (
    <div className="mx-auto max-w-lg px-4 py-12 text-center">
      <ShieldAlert className="mx-auto h-10 w-10 text-red-600" aria-hidden />
      <h1 className="mt-3 text-xl font-semibold text-stone-900">{title}</h1>
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
  // A missing or malformed id (the API answers 404 for both) is not a permission problem (issue 26 §5).
  if (user.error?.status === 404) return <AccessDenied title={SCREEN_TEXTS.userNotFound} message={SCREEN_TEXTS.userNotFoundHint} />;
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
  const edit = useEditUser(user, outlets);
  const name = user.fullName ?? user.email;
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 pt-6 sm:pt-8">
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
      </header>

      <EditUserProfileCard user={user} form={edit.form} isActive={edit.values.isActive} editable={edit.profileEditable} />

      <OutletAssignmentsCard userId={user.id} outlets={edit.sortedOutlets} onToggle={edit.toggleOutlet} />

      <RoleAssignmentsCard
        grants={edit.assigned}
        assignable={assignable}
        outletIdsForRoles={edit.outletIdsForRoles}
        busy={edit.rolesBusy}
        onAdd={edit.addRole}
        onRemove={edit.removeRole}
      />

      <EditUserDangerZone userId={user.id} name={name} email={user.email} canDelete={user.canDelete} />

      <StickySaveBar status={edit.changed ? 'Unsaved changes' : 'No changes'}>
        <Button onClick={() => void edit.save()} disabled={!edit.changed || edit.saving} loading={edit.saving}>
          {edit.saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </StickySaveBar>
    </div>
  );
}
