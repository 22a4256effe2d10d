import { z } from 'zod';
import type { Request } from 'express';
import { rateLimit } from '../../http/rate-limit';
import {
  AUTH_MESSAGES,
  BULK_INVITE_MAX_BYTES,
  BULK_INVITE_MESSAGES,
  BULK_INVITE_TEMPLATE,
  PERMISSIONS,
  acceptInvitationBodySchema,
  acceptInvitationResultSchema,
  adminInvitationsPageSchema,
  adminInvitationsQuerySchema,
  adminOutletRequestSchema,
  adminOutletRequestsPageSchema,
  adminOutletRequestsQuerySchema,
  approveOutletRequestBodySchema,
  bulkInviteQuerySchema,
  bulkInviteResultSchema,
  createInvitationBodySchema,
  createdInvitationSchema,
  invitationIdParamsSchema,
  invitationOptionsSchema,
  invitationTokenParamsSchema,
  outletRequestIdParamsSchema,
  publicInvitationSchema,
  rejectOutletRequestBodySchema,
  resentInvitationSchema,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import { readCsvText } from '../../http/csv-text';
import { route } from '../../http/route';
import { linkBaseFor } from '../auth/auth.service';
import * as invitations from './invitations.service';
import { bulkInvite } from './invitations-bulk.service';
import * as outletRequests from './outlet-requests.service';

const P = PERMISSIONS;
/** Who may see and manage invitations: inviters and user administrators (scope is checked per row). */
const INVITATION_ADMINS = [P.usersAllowInvites, P.usersSuperAdmin, P.usersManageBoard, P.usersManageStore, P.usersManageOutlet];

const meta = (req: Request, ctx: AppContext) => ({
  ip: req.ip,
  linkBase: linkBaseFor(ctx.config, { protocol: req.protocol, host: req.get('host') }),
});

/**
 * A per-IP limiter for the public invitation routes (http/rate-limit.ts): 429 problem+json with Retry-After;
 * counted in PostgreSQL under `prefix` (one budget per IP across API replicas).
 */
const ipLimiter = (ctx: AppContext, prefix: string, windowSeconds: number, limit: number) =>
  rateLimit({ windowSeconds, limit, message: AUTH_MESSAGES.tooManyRequests, shared: { db: ctx.db, prefix } });
const READ_LIMIT = 300;
const ACCEPT_LIMIT = 50;
const WINDOW_SECONDS = 15 * 60;

/** Invitations and onboarding (ARCHITECTURE §5). */
export const invitationsRoutes = [
  route({
    method: 'get',
    path: '/invitations/options',
    scope: 'reach',
    tags: ['invitations'],
    permissions: [P.usersAllowInvites],
    summary: 'The roles the caller may grant in an invitation, and the outlets, stores and boards where',
    response: { description: 'Grantable roles and outlets', schema: invitationOptionsSchema },
    handler: (actor, _input, { ctx }) => invitations.invitationOptions(ctx.db, actor),
  }),
  route({
    method: 'post',
    path: '/invitations',
    scope: 'grants',
    tags: ['invitations'],
    permissions: [P.usersAllowInvites],
    body: createInvitationBodySchema,
    summary: 'Invite a person with roles held at outlets, stores or boards (ARCHITECTURE §11); mails the one-time link (7 days)',
    description:
      'A second invitation to an email with one pending replaces it (the old link stops working). Inviting an existing user is allowed.',
    response: { status: 201, description: 'Invitation created and mailed', schema: createdInvitationSchema },
    errors: {
      403: "An invitation to one's own address (self_grant_forbidden), a role above the caller's level at the place (role_not_grantable), an outlet (outlet_not_grantable) or a store or board (scope_not_grantable) out of the caller's reach",
      400: 'Unknown role, outlet, store or board, or a role without a place of its kind (outlet roles need outletIds, store roles storeIds): validation_failed',
    },
    handler: async (actor, { body }, { ctx, req }) => {
      const { link: _link, ...created } = await invitations.createInvitation(ctx, actor, body, meta(req, ctx));
      return created;
    },
  }),
  route({
    method: 'post',
    path: '/invitations/bulk',
    // Not 'grants': a row the caller may not grant is refused in that row's result (200), never the whole file;
    // the service checks every row's places as POST /invitations does (ARCHITECTURE §11).
    scope: 'reach',
    tags: ['invitations'],
    permissions: [P.usersAllowInvites],
    query: bulkInviteQuerySchema,
    bodyDoc: {
      description:
        'A CSV file, header first: email, first name, last name, role code, and outlet codes (";"-separated) or store numbers for store-level roles. At most 5,000 rows and 1 MB.',
      content: {
        'text/csv': { schema: z.string(), example: `${BULK_INVITE_TEMPLATE}ann@example.com,Ann,Lee,outlet_buyer,DEMO-001;DEMO-002\n` },
      },
    },
    summary: 'Invite many people from a CSV: each row checked as one invitation; ?dryRun=true checks and sends nothing',
    description:
      "Answers each row's outcome ({ row, email, ok, code?, message? }; row is the line number in the file, the header being line 1). Without dryRun the valid rows are created and mailed one by one; refused rows are skipped.",
    response: { description: 'Per-row results', schema: bulkInviteResultSchema },
    errors: {
      400: 'An unreadable file, a header without the columns (csv_header_unknown), no data rows (bulk_body_empty), binary bytes (body_binary)',
      413: 'More than 5,000 rows or 1 MB',
      415: 'Not text/csv',
    },
    handler: async (actor, { query }, { ctx, req }) => {
      const text = await readCsvText(req, {
        maxBytes: BULK_INVITE_MAX_BYTES,
        tooLarge: BULK_INVITE_MESSAGES.tooLarge(BULK_INVITE_MAX_BYTES / 2 ** 20),
        mediaType: BULK_INVITE_MESSAGES.mediaType,
      });
      return bulkInvite(ctx, actor, text, { dryRun: query.dryRun, meta: meta(req, ctx) });
    },
  }),
  route({
    method: 'get',
    path: '/invitations/{token}',
    scope: 'public',
    tags: ['invitations'],
    auth: 'public',
    params: invitationTokenParamsSchema,
    summary: 'Read an invitation by its link token (read-only: changes nothing)',
    response: { description: 'The invitation with role and outlet labels', schema: publicInvitationSchema },
    errors: {
      404: 'invitation_not_found',
      409: 'invitation_used or invitation_revoked',
      410: 'invitation_expired',
      429: 'Too many requests',
    },
    before: (ctx) => [ipLimiter(ctx, 'invitation-read-ip', WINDOW_SECONDS, READ_LIMIT)],
    handler: (_actor, { params }, { ctx }) => invitations.readInvitation(ctx.db, params.token),
  }),
  route({
    method: 'post',
    path: '/invitations/{token}/accept',
    scope: 'public',
    tags: ['invitations'],
    auth: 'public',
    params: invitationTokenParamsSchema,
    body: acceptInvitationBodySchema,
    summary: 'Accept an invitation: create the account (or update an existing one) with its roles and outlets',
    response: { status: 200, description: 'Accepted', schema: acceptInvitationResultSchema },
    errors: {
      400: 'Invalid names or password (validation_failed, common_password)',
      404: 'invitation_not_found',
      409: 'invitation_used or invitation_revoked',
      410: 'invitation_expired',
      429: 'Too many requests',
    },
    before: (ctx) => [ipLimiter(ctx, 'invitation-accept-ip', WINDOW_SECONDS, ACCEPT_LIMIT)],
    handler: (_actor, { params, body }, { ctx, req }) =>
      invitations.acceptInvitation(
        ctx,
        params.token,
        {
          firstName: body.firstName,
          lastName: body.lastName,
          phone: body.phone ?? null,
          password: body.password,
        },
        meta(req, ctx),
      ),
  }),
  route({
    method: 'get',
    path: '/admin/invitations',
    scope: 'reach',
    tags: ['invitations'],
    permissions: INVITATION_ADMINS,
    query: adminInvitationsQuerySchema,
    summary: "Invitations in the caller's scope, newest first, by status",
    response: { description: 'A page of invitations', schema: adminInvitationsPageSchema },
    handler: (actor, { query }, { ctx }) => invitations.listInvitations(ctx.db, actor, query),
  }),
  route({
    method: 'post',
    path: '/admin/invitations/{id}/resend',
    scope: { row: 'invitation', id: (i) => i.params.id, notFound: 'Invitation not found' },
    tags: ['invitations'],
    permissions: INVITATION_ADMINS,
    params: invitationIdParamsSchema,
    summary: 'Mail a pending or expired invitation again with a new link (the old one stops working)',
    response: { status: 200, description: 'Resent', schema: resentInvitationSchema },
    errors: { 404: "Not found or not in the caller's scope", 409: 'Used or revoked (invitation_not_pending)' },
    handler: (actor, { params }, { ctx, req }) => invitations.resendInvitation(ctx, actor, params.id, meta(req, ctx)),
  }),
  route({
    method: 'delete',
    path: '/admin/invitations/{id}',
    scope: { row: 'invitation', id: (i) => i.params.id, notFound: 'Invitation not found' },
    tags: ['invitations'],
    permissions: INVITATION_ADMINS,
    params: invitationIdParamsSchema,
    summary: 'Revoke an invitation (its link stops working)',
    response: { status: 204, description: 'Revoked' },
    errors: { 404: "Not found or not in the caller's scope", 409: 'Used or revoked (invitation_not_pending)' },
    handler: (actor, { params }, { ctx, req }) => invitations.revokeInvitation(ctx, actor, params.id, meta(req, ctx)),
  }),
  route({
    method: 'get',
    path: '/admin/outlet-requests',
    scope: 'reach',
    tags: ['outlet-requests'],
    permissions: outletRequests.OUTLET_REQUEST_DECIDERS,
    query: adminOutletRequestsQuerySchema,
    summary: 'Outlet access requests for outlets the caller may manage (pending first)',
    response: { description: 'A page of outlet requests', schema: adminOutletRequestsPageSchema },
    handler: (actor, { query }, { ctx }) => outletRequests.listOutletRequests(ctx.db, actor, query),
  }),
  route({
    method: 'post',
    path: '/admin/outlet-requests/{id}/approve',
    scope: { row: 'outletRequest', id: (i) => i.params.id, notFound: 'Outlet request not found' },
    tags: ['outlet-requests'],
    permissions: outletRequests.OUTLET_REQUEST_DECIDERS,
    params: outletRequestIdParamsSchema,
    body: approveOutletRequestBodySchema,
    summary:
      'Approve an outlet request: grants the requester a role at the outlet (roleId, an outlet role below yours there; default Outlet Viewer) and mails them',
    response: { status: 200, description: 'Approved', schema: adminOutletRequestSchema },
    errors: {
      403: "Approving one's own request (self_grant_forbidden) or a role not below one's own there (role_not_assignable)",
      404: "Not found or not in the caller's scope",
      409: 'Already decided (outlet_request_decided)',
      400: 'roleId is not an outlet role (validation_failed)',
    },
    handler: (actor, { params, body }, { ctx, req }) =>
      outletRequests.decideOutletRequest(ctx, actor, params.id, { approve: true, roleId: body.roleId }, meta(req, ctx)),
  }),
  route({
    method: 'post',
    path: '/admin/outlet-requests/{id}/reject',
    scope: { row: 'outletRequest', id: (i) => i.params.id, notFound: 'Outlet request not found' },
    tags: ['outlet-requests'],
    permissions: outletRequests.OUTLET_REQUEST_DECIDERS,
    params: outletRequestIdParamsSchema,
    body: rejectOutletRequestBodySchema,
    summary: 'Reject an outlet request, with an optional reason mailed to the requester',
    response: { status: 200, description: 'Rejected', schema: adminOutletRequestSchema },
    errors: { 404: "Not found or not in the caller's scope", 409: 'Already decided (outlet_request_decided)' },
    handler: (actor, { params, body }, { ctx, req }) =>
      outletRequests.decideOutletRequest(ctx, actor, params.id, { approve: false, reason: body.reason }, meta(req, ctx)),
  }),
];
