import type { Request } from 'express';
import {
  PERMISSIONS,
  changePasswordBodySchema,
  meBootSchema,
  meSchema,
  myOutletsSchema,
  myRolesSchema,
  outletRequestBodySchema,
  outletRequestSchema,
  permissionCodeParamsSchema,
  myPermissionsSchema,
  permissionAtQuerySchema,
  permissionGrantedSchema,
  profileSchema,
  putSelectionBodySchema,
  requestableOutletsSchema,
  selectionSchema,
  updateProfileBodySchema,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import { verifyAccessToken } from '../../http/auth';
import { route } from '../../http/route';
import * as authService from '../auth/auth.service';
import * as meService from './me.service';

const tags = ['me'];
const readOutlets = [PERMISSIONS.outletsReadAssigned];

/** The session family of the bearer token (its `sid`), so a password change keeps this session. */
function currentFamilyId(req: Request, secret: string): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
  return bearer ? verifyAccessToken(secret, bearer).sid : undefined;
}

/** Where the request came from (audit) and the origin its mail links use. */
function requestMeta(req: Request, config: AppContext['config']) {
  return {
    ip: req.ip,
    userAgent: req.get('user-agent'),
    linkBase: authService.linkBaseFor(config, { protocol: req.protocol, host: req.get('host') }),
  };
}

/** /api/v1/me: profile, password, roles, permissions, outlets, selection, outlet requests (spec 000, ARCHITECTURE §5). */
export const meRoutes = [
  route({
    method: 'get',
    path: '/me',
    scope: 'self',
    tags,
    summary: 'The signed-in user: account, profile, roles, permission codes',
    response: { description: 'Me', schema: meSchema },
    handler: (actor, _input, { ctx }) => meService.getMe(ctx.db, actor),
  }),
  route({
    method: 'get',
    path: '/me/boot',
    scope: 'self',
    tags,
    summary:
      "A page load's first reads in one answer: /me, and /me/outlets, /me/selection and the selected outlet's stores (each null where its own route would refuse), with the order feed's horizon (orderFeedSeq: every event up to it has committed)",
    response: { description: 'Me, outlets, selection, stores and the order feed seq', schema: meBootSchema },
    handler: (actor, _input, { ctx }) => meService.getBoot(ctx.db, actor),
  }),
  route({
    method: 'patch',
    path: '/me/profile',
    scope: 'self',
    tags,
    body: updateProfileBodySchema,
    summary: 'Edit first name, last name and phone (E.164 or a US national form; email is read-only)',
    errors: { 409: "The phone is another active account's sign-in phone (phone_taken)" },
    response: { description: 'Saved profile', schema: profileSchema },
    handler: (actor, { body }, { ctx, req }) => meService.updateProfile(ctx.db, actor, body, requestMeta(req, ctx.config)),
  }),
  route({
    method: 'post',
    path: '/me/password',
    scope: 'self',
    tags,
    body: changePasswordBodySchema,
    summary: 'Change password (current password verified); mails the notice',
    response: { status: 204, description: 'Password changed' },
    handler: async (actor, { body }, { ctx, req }) => {
      const caller = { userId: actor.userId, currentFamilyId: currentFamilyId(req, ctx.config.jwtSecret) };
      await authService.changePassword(ctx, caller, body, requestMeta(req, ctx.config));
    },
  }),
  route({
    method: 'get',
    path: '/me/roles',
    scope: 'self',
    tags,
    summary: 'My roles, sorted by role_level descending',
    response: { description: 'Roles', schema: myRolesSchema },
    handler: async (actor, _input, { ctx }) => ({ items: await meService.listMyRoles(ctx.db, actor) }),
  }),
  route({
    method: 'get',
    path: '/me/permissions',
    scope: 'self',
    tags,
    summary: 'My permission codes: anywhere, globally, and per board, store and outlet (ARCHITECTURE §11)',
    response: { description: 'Codes anywhere, globally, and per board, store and outlet', schema: myPermissionsSchema },
    handler: (actor, _input, { ctx }) => meService.myPermissions(ctx.db, actor),
  }),
  route({
    method: 'get',
    path: '/me/permissions/{code}',
    scope: 'self',
    tags,
    params: permissionCodeParamsSchema,
    query: permissionAtQuerySchema,
    summary: 'Do I hold this permission (anywhere, or at outletId / storeId / boardId)?',
    response: { description: 'Granted or not', schema: permissionGrantedSchema },
    handler: async (actor, { params, query }, { ctx }) => ({ granted: await meService.holdsPermission(ctx.db, actor, params.code, query) }),
  }),
  route({
    method: 'get',
    path: '/me/outlets',
    scope: 'self',
    tags,
    permissions: readOutlets,
    summary: 'My accessible outlets with board and active stores',
    response: { description: 'Outlets', schema: myOutletsSchema },
    handler: async (actor, _input, { ctx }) => ({ items: await meService.listMyOutlets(ctx.db, actor) }),
  }),
  route({
    method: 'get',
    path: '/me/selection',
    scope: 'self',
    tags,
    permissions: readOutlets,
    summary: 'Current outlet and store (saved, else fallback)',
    response: { description: 'Selection', schema: selectionSchema },
    handler: (actor, _input, { ctx }) => meService.getSelection(ctx.db, actor),
  }),
  route({
    method: 'put',
    path: '/me/selection',
    scope: 'self',
    tags,
    permissions: readOutlets,
    body: putSelectionBodySchema,
    summary: 'Choose outlet and store (storeId null resets the store)',
    response: { description: 'Resolved selection', schema: selectionSchema },
    handler: (actor, { body }, { ctx }) => meService.putSelection(ctx.db, actor, body),
  }),
  route({
    method: 'get',
    path: '/me/requestable-outlets',
    scope: 'self',
    tags,
    summary: 'Active outlets I am not assigned to',
    response: { description: 'Outlets', schema: requestableOutletsSchema },
    handler: async (actor, _input, { ctx }) => ({ items: await meService.listRequestableOutlets(ctx.db, actor) }),
  }),
  route({
    method: 'post',
    path: '/me/outlet-requests',
    scope: 'self',
    tags,
    body: outletRequestBodySchema,
    summary: 'Request access to an outlet; mails the administrators',
    response: { status: 201, description: 'Request created', schema: outletRequestSchema },
    errors: { 409: 'Already assigned or already requested' },
    handler: (actor, { body }, { ctx, req }) => meService.requestOutlet(ctx, actor, body, requestMeta(req, ctx.config)),
  }),
];
