import { Dialog } from '@/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { OutletRequestsPanel } from './outlet-requests-panel';
import { PendingInvitationsPanel } from './pending-invitations-panel';

/**
 * The profile menu's "Outlet Requests" dialog (issue 11 §9, until the admin area hosts the panels): the
 * outlet requests to decide and, for inviters, the invitations they may resend or revoke.
 */
export function RequestsDialog({
  open,
  onOpenChange,
  showInvitations,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  showInvitations: boolean;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Outlet requests and invitations"
      className="max-w-3xl"
      description="Approve or reject requests for outlets you manage; resend or revoke invitations."
    >
      {showInvitations ? (
        <Tabs defaultValue="requests">
          <TabsList aria-label="Sections">
            <TabsTrigger value="requests">Outlet requests</TabsTrigger>
            <TabsTrigger value="invitations">Invitations</TabsTrigger>
          </TabsList>
          <TabsContent value="requests">
            <OutletRequestsPanel />
          </TabsContent>
          <TabsContent value="invitations">
            <PendingInvitationsPanel />
          </TabsContent>
        </Tabs>
      ) : (
        <OutletRequestsPanel />
      )}
    </Dialog>
  );
}
