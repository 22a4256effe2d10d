import type { MailMessage } from '../../context';

const list = (xs: string[]) => (xs.length ? xs.join(', ') : '—');
const day = (d: Date) => d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** The invitation mail (ARCHITECTURE §7): who invited, the roles and outlets, the one-time link and its expiry. */
export function invitationMail(
  to: string,
  i: { firstName: string; inviterName: string; roleLabels: string[]; outletLabels: string[]; link: string; expiresAt: Date },
): MailMessage {
  return {
    to,
    template: 'invitation',
    subject: 'You are invited to the ordering portal',
    text: [
      `Hello ${i.firstName},`,
      '',
      `${i.inviterName} invited you to the ordering portal.`,
      `Roles: ${list(i.roleLabels)}`,
      `Outlets: ${list(i.outletLabels)}`,
      '',
      `Accept the invitation here (the link works once, until ${day(i.expiresAt)}):`,
      i.link,
      '',
      'If you did not expect this invitation, ignore this mail.',
    ].join('\n'),
  };
}

/** The welcome mail after an acceptance (spec 002 §7 send-welcome-email: email, names, new or existing user). */
export function welcomeMail(
  to: string,
  w: { firstName: string; lastName: string; isNewUser: boolean; signInUrl: string; outletLabels: string[] },
): MailMessage {
  return {
    to,
    template: 'welcome',
    subject: w.isNewUser ? 'Welcome to the ordering portal' : 'Your portal access was updated',
    text: [
      `Hello ${w.firstName} ${w.lastName},`,
      '',
      w.isNewUser
        ? 'Your ordering portal account is ready.'
        : 'Your invitation was accepted: your account now has the new roles and outlets.',
      `Outlets: ${list(w.outletLabels)}`,
      '',
      `Sign in at ${w.signInUrl}`,
    ].join('\n'),
  };
}

/** The decision on an outlet access request, mailed to the requester. */
export function outletRequestDecisionMail(
  to: string,
  d: { outletName: string; approved: boolean; reason?: string | null; signInUrl: string },
): MailMessage {
  return {
    to,
    template: d.approved ? 'outlet_request_approved' : 'outlet_request_rejected',
    subject: d.approved ? `Outlet access approved: ${d.outletName}` : `Outlet access request declined: ${d.outletName}`,
    text: [
      d.approved
        ? `Your request for access to the outlet ${d.outletName} was approved. It now appears in your outlet selection menu.`
        : `Your request for access to the outlet ${d.outletName} was declined.`,
      ...(d.reason ? ['', `Reason: ${d.reason}`] : []),
      '',
      `Sign in at ${d.signInUrl}`,
    ].join('\n'),
  };
}
