import type { MailMessage } from '../../context';

/** The outlet access request sent to each administrator (spec 000 §7 send-outlet-request). */
export function outletRequestMail(
  to: string,
  r: { requesterName: string; requesterEmail: string; outletName: string; outletCode: string; adminUrl: string },
): MailMessage {
  return {
    to,
    template: 'outlet_request',
    subject: `Outlet access request: ${r.outletName}`,
    text: [
      `${r.requesterName} (${r.requesterEmail}) asked for access to the outlet ${r.outletName} (${r.outletCode}).`,
      '',
      `Review the request in the admin area: ${r.adminUrl}`,
    ].join('\n'),
  };
}
