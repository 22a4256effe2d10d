import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { FileUp, UserPlus } from 'lucide-react';
import { PERMISSIONS as P } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { UsersTab } from '@/features/admin-users';
import { RolesTab } from '@/features/admin-roles';
import { AuditTab } from '@/features/admin-audit';
import { InviteCsvDialog, InviteUserDialog, OutletRequestsPanel, PendingInvitationsPanel } from '@/features/invitations';
import { useSession } from '@/lib/session';

/** Permissions that decide outlet requests (the API's OUTLET_REQUEST_DECIDERS). */
const DECIDERS = [P.usersSuperAdmin, P.usersManageBoard, P.usersManageStore, P.usersManageOutlet];

/**
 * The admin tabs of issue 12, composed here (features never import each other). The Users tab hosts the
 * invitations feature (issue 11): Invite (bcc.users.allow_invites) opens its InviteUserDialog, Invite from CSV its
 * InviteCsvDialog (issue 26 §3); its outlet
 * requests and pending invitations panels sit below the list.
 */
export function UsersTabPanel() {
  const { hasPermission, hasAnyPermission } = useSession();
  const { mutate } = useSWRConfig();
  const [inviting, setInviting] = useState(false);
  const [importing, setImporting] = useState(false);
  const canInvite = hasPermission(P.usersAllowInvites);
  const refreshUsers = () => void mutate((k) => typeof k === 'string' && k.includes('/admin/users?'));
  return (
    <>
      <UsersTab
        actions={
          canInvite && (
            <>
              <Button variant="outline" onClick={() => setImporting(true)}>
                <FileUp className="h-4 w-4" aria-hidden />
                Invite from CSV
              </Button>
              <Button onClick={() => setInviting(true)}>
                <UserPlus className="h-4 w-4" aria-hidden />
                Invite User
              </Button>
            </>
          )
        }
      >
        <div className="space-y-6 pt-4">
          {hasAnyPermission(DECIDERS) && <OutletRequestsPanel />}
          {(canInvite || hasAnyPermission(DECIDERS)) && <PendingInvitationsPanel />}
        </div>
      </UsersTab>
      {canInvite && <InviteUserDialog open={inviting} onOpenChange={setInviting} onInvited={refreshUsers} />}
      {canInvite && <InviteCsvDialog open={importing} onOpenChange={setImporting} onInvited={refreshUsers} />}
    </>
  );
}

/** The Roles tab: editable with bcc.admin.roles.update, otherwise read-only with the spec's warning. */
export function RolesTabPanel() {
  const { hasPermission } = useSession();
  return <RolesTab canEdit={hasPermission(P.adminRolesUpdate)} />;
}

/** The Audit tab (super administrators; board administrators for their board). */
export function AuditTabPanel() {
  return <AuditTab />;
}
