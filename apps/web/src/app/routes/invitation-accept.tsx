import { InvitationAcceptPage } from '@/features/invitations';

/** /invitation/accept?inv=… (spec 002 §2): public, without the common header. */
export function InvitationAcceptRoute() {
  return <InvitationAcceptPage />;
}
