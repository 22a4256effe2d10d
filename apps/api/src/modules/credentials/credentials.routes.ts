import { z } from 'zod';
import {
  createCredentialBodySchema,
  credentialTestResultSchema,
  intIdSchema,
  paymentCredentialListSchema,
  paymentCredentialSchema,
  revealCredentialBodySchema,
  revealedCredentialSchema,
  updateCredentialBodySchema,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import { rateLimit } from '../../http/rate-limit';
import { route } from '../../http/route';
import { adminActor } from '../access/access.service';
import * as credentials from './credentials.service';

const tags = ['admin: payment credentials'];
const permissions = credentials.CREDENTIAL_CODES;
const credential = paymentCredentialSchema.meta({ id: 'PaymentCredential' });
const params = z.object({ id: intIdSchema });

/** Failed reveals allowed per client IP in 15 minutes (guessing the password through reveal is slowed down). */
export const REVEAL_FAILURE_LIMIT = 20;
const revealLimiter = (ctx: AppContext) => [
  rateLimit({
    windowSeconds: 15 * 60,
    limit: REVEAL_FAILURE_LIMIT,
    onlyFailures: true,
    shared: { db: ctx.db, prefix: 'reveal-failed-ip' },
  }),
];

/** /api/v1/admin/payment-credentials (spec 002 §2 Credentials, §7 manage-credentials, ARCHITECTURE §5, §6, §9). */
export const credentialsRoutes = [
  route({
    method: 'get',
    path: '/admin/payment-credentials',
    scope: 'reach',
    tags,
    permissions,
    summary: "Payment credentials of the caller's stores, newest first (never the secret)",
    response: { description: 'Credentials without their payload', schema: paymentCredentialListSchema },
    handler: (actor, _i, { ctx }) => credentials.listCredentials(ctx.db, actor),
  }),
  route({
    method: 'post',
    path: '/admin/payment-credentials',
    scope: { row: 'store', id: (i) => i.body.storeId, fromBody: true, notFound: 'Store not found' },
    tags,
    permissions,
    body: createCredentialBodySchema,
    summary: "Add a store's payment credential; the payload is encrypted with AES-256-GCM",
    response: { status: 201, description: 'The credential (without its payload)', schema: credential },
    errors: { 409: 'The store already has one for this app, environment and type (credential_exists)' },
    handler: (actor, { body }, { ctx, req }) => credentials.createCredential(ctx.db, ctx.config, adminActor(actor, req), body),
  }),
  route({
    method: 'patch',
    path: '/admin/payment-credentials/{id}',
    scope: { row: 'credential', id: (i) => i.params.id, notFound: 'Payment credential not found' },
    tags,
    permissions,
    params,
    body: updateCredentialBodySchema,
    summary: 'Edit a payment credential (a new payload is encrypted again)',
    response: { description: 'The credential (without its payload)', schema: credential },
    errors: { 404: "No such credential in the caller's stores", 409: 'Duplicate (credential_exists)' },
    handler: (actor, { params: p, body }, { ctx, req }) =>
      credentials.updateCredential(ctx.db, ctx.config, adminActor(actor, req), p.id, body),
  }),
  route({
    method: 'post',
    path: '/admin/payment-credentials/{id}/reveal',
    scope: { row: 'credential', id: (i) => i.params.id, notFound: 'Payment credential not found' },
    tags,
    permissions,
    params,
    body: revealCredentialBodySchema,
    summary: "Decrypt a credential with the caller's current password (audited)",
    before: revealLimiter,
    response: { description: 'The decrypted payload', schema: revealedCredentialSchema },
    errors: {
      401: 'No current password (password_required)',
      403: 'Wrong current password (invalid_password)',
      404: 'No such credential',
      422: 'Decryption failed (decryption_failed)',
      429: `More than ${REVEAL_FAILURE_LIMIT} failed reveals from this address in 15 minutes (rate_limited)`,
    },
    handler: (actor, { params: p, body }, { ctx, req }) =>
      credentials.revealCredential(ctx.db, ctx.config, adminActor(actor, req), p.id, body.currentPassword),
  }),
  route({
    method: 'post',
    path: '/admin/payment-credentials/{id}/test',
    scope: { row: 'credential', id: (i) => i.params.id, notFound: 'Payment credential not found' },
    tags,
    permissions,
    params,
    summary: 'Test a Monetra credential against the configured endpoint',
    response: { description: 'Test Successful or Test Failed with the reason', schema: credentialTestResultSchema },
    errors: { 404: 'No such credential', 422: 'Testing is only available for Monetra credentials (monetra_only)' },
    handler: (actor, { params: p }, { ctx, req }) => credentials.testCredential(ctx.db, ctx.config, adminActor(actor, req), p.id),
  }),
];
