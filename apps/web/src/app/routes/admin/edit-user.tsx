import { useParams } from 'react-router-dom';
import { ADMIN_USER_MESSAGES as M, PERMISSIONS } from '@portal/contracts';
import { AccessDenied, EditUserScreen } from '@/features/admin-users';
import { useSession } from '@/lib/session';

/** /admin/users/{userId} (spec 002 §2 Edit User), behind the four user-management permissions. */
export function EditUserRoute() {
  const { userId } = useParams();
  const { me, hasPermission } = useSession();
  if (!userId || !me) return <AccessDenied message={M.userIdRequired} />;
  return <EditUserScreen userId={userId} viewerId={me.user.id} viewerIsSuperAdmin={hasPermission(PERMISSIONS.usersSuperAdmin)} />;
}
