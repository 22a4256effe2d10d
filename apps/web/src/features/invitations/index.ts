/** Invitations and onboarding (issue 11): the pieces other screens host (profile menu, admin Users tab, the accept route). */
export { InviteUserDialog } from './components/invite-user-dialog';
export { InviteCsvDialog } from './components/invite-csv-dialog';
export { OutletRequestsPanel } from './components/outlet-requests-panel';
export { PendingInvitationsPanel } from './components/pending-invitations-panel';
export { RequestsDialog } from './components/requests-dialog';
export { InvitationAcceptPage } from './components/invitation-accept-page';
