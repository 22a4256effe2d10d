import {
  acceptInvitationResultSchema,
  adminInvitationsPageSchema,
  adminOutletRequestSchema,
  adminOutletRequestsPageSchema,
  bulkInviteResultSchema,
  createdInvitationSchema,
  invitationOptionsSchema,
  publicInvitationSchema,
  type AcceptInvitationBody,
  type AcceptInvitationResult,
  type AdminOutletRequest,
  type BulkInviteResult,
  type CreateInvitationBody,
  type CreatedInvitation,
  type InvitationStatus,
  type PublicInvitation,
} from '@portal/contracts';
import { api, getJson, useApi } from '@/lib/api';

/** GET /invitations/options: the roles and outlets the signed-in user may grant; fetched only when `enabled`. */
export function useInvitationOptions(enabled: boolean) {
  return useApi(enabled ? '/invitations/options' : null, invitationOptionsSchema, { revalidateOnFocus: false });
}

/** POST /invitations: invites a person; the server mails the link. Throws ApiError. */
export async function createInvitation(body: CreateInvitationBody): Promise<CreatedInvitation> {
  return createdInvitationSchema.parse(await api.post('/invitations', { json: body }));
}

/** GET /invitations/{token} (public, read-only). Throws ApiError (404, 409, 410…). */
export function getInvitation(token: string): Promise<PublicInvitation> {
  return getJson(`/invitations/${encodeURIComponent(token)}`, publicInvitationSchema);
}

/** POST /invitations/{token}/accept (public). Throws ApiError. */
export async function acceptInvitation(token: string, body: AcceptInvitationBody): Promise<AcceptInvitationResult> {
  return acceptInvitationResultSchema.parse(await api.post(`/invitations/${encodeURIComponent(token)}/accept`, { json: body }));
}

/** GET /admin/invitations: a page of invitations in the caller's scope. */
export function useAdminInvitations(q: { status?: InvitationStatus; search?: string; page: number; pageSize?: number }) {
  const params = new URLSearchParams({ page: String(q.page), pageSize: String(q.pageSize ?? 10) });
  if (q.status) params.set('status', q.status);
  if (q.search) params.set('search', q.search);
  return useApi(`/admin/invitations?${params}`, adminInvitationsPageSchema);
}

/** POST /admin/invitations/{id}/resend: a new link (the old one stops working). */
export async function resendInvitation(id: string): Promise<CreatedInvitation> {
  return createdInvitationSchema.parse(await api.post(`/admin/invitations/${id}/resend`));
}

/** DELETE /admin/invitations/{id}: revokes the invitation. */
export async function revokeInvitation(id: string): Promise<void> {
  await api.delete(`/admin/invitations/${id}`);
}

/** GET /admin/outlet-requests: a page of outlet access requests the caller may decide. */
export function useOutletRequests(q: { status?: 'pending' | 'approved' | 'rejected'; page: number; pageSize?: number }) {
  const params = new URLSearchParams({ page: String(q.page), pageSize: String(q.pageSize ?? 10) });
  if (q.status) params.set('status', q.status);
  return useApi(`/admin/outlet-requests?${params}`, adminOutletRequestsPageSchema);
}

/** POST /admin/outlet-requests/{id}/approve or /reject { reason? }. */
export async function decideOutletRequest(id: number, approve: boolean, reason?: string): Promise<AdminOutletRequest> {
  return adminOutletRequestSchema.parse(
    await api.post(
      `/admin/outlet-requests/${id}/${approve ? 'approve' : 'reject'}`,
      approve ? {} : { json: { reason: reason || undefined } },
    ),
  );
}

/**
 * POST /invitations/bulk (issue 26 §3): the CSV as text/csv; `dryRun` checks every row and sends nothing. Answers
 * each row's outcome (row = line number in the file). Throws ApiError (400 header or empty file, 413 too large).
 */
export async function inviteFromCsv(csv: string, dryRun: boolean): Promise<BulkInviteResult> {
  return bulkInviteResultSchema.parse(
    await api.post(`/invitations/bulk${dryRun ? '?dryRun=true' : ''}`, { body: csv, headers: { 'Content-Type': 'text/csv' } }),
  );
}
