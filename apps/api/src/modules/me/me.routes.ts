import { Router, type Request } from 'express';
import {
  PERMISSIONS, changePasswordBodySchema, meSchema, myOutletsSchema, myRolesSchema, outletRequestBodySchema, outletRequestSchema,
  permissionCodeParamsSchema, permissionCodesSchema, permissionGrantedSchema, profileSchema, putSelectionBodySchema,
  requestableOutletsSchema, selectionSchema, updateProfileBodySchema,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import { authenticate, principalOf, requirePermission, verifyAccessToken } from '../../http/auth';
import { documentRoute, jsonBody, jsonResponse, problemResponse } from '../../http/openapi';
import * as authService from '../auth/auth.service';
import * as meService from './me.service';

const READ_OUTLETS = PERMISSIONS.outletsReadAssigned;

documentRoute({ method: 'get', path: '/me', summary: 'The signed-in user: account, profile, roles, permission codes', tags: ['me'], responses: { 200: jsonResponse('Me', meSchema) } });
documentRoute({
  method: 'patch', path: '/me/profile', summary: 'Edit first name, last name and phone (email is read-only)', tags: ['me'],
  request: { body: jsonBody(updateProfileBodySchema) }, responses: { 200: jsonResponse('Saved profile', profileSchema) },
});
documentRoute({
  method: 'post', path: '/me/password', summary: 'Change password (current password verified); mails the notice', tags: ['me'],
  request: { body: jsonBody(changePasswordBodySchema) }, responses: { 204: { description: 'Password changed' } },
});
documentRoute({ method: 'get', path: '/me/roles', summary: 'My roles, sorted by role_level descending', tags: ['me'], responses: { 200: jsonResponse('Roles', myRolesSchema) } });
documentRoute({ method: 'get', path: '/me/permissions', summary: 'My permission codes', tags: ['me'], responses: { 200: jsonResponse('Codes', permissionCodesSchema) } });
documentRoute({
  method: 'get', path: '/me/permissions/{code}', summary: 'Do I hold this permission?', tags: ['me'],
  request: { params: permissionCodeParamsSchema }, responses: { 200: jsonResponse('Granted or not', permissionGrantedSchema) },
});
documentRoute({
  method: 'get', path: '/me/outlets', summary: `My accessible outlets with board and active stores (needs ${READ_OUTLETS})`, tags: ['me'],
  responses: { 200: jsonResponse('Outlets', myOutletsSchema) },
});
documentRoute({
  method: 'get', path: '/me/selection', summary: `Current outlet and store (saved, else fallback; needs ${READ_OUTLETS})`, tags: ['me'],
  responses: { 200: jsonResponse('Selection', selectionSchema) },
});
documentRoute({
  method: 'put', path: '/me/selection', summary: `Choose outlet and store (storeId null resets the store; needs ${READ_OUTLETS})`, tags: ['me'],
  request: { body: jsonBody(putSelectionBodySchema) }, responses: { 200: jsonResponse('Resolved selection', selectionSchema) },
});
documentRoute({
  method: 'get', path: '/me/requestable-outlets', summary: 'Active outlets I am not assigned to', tags: ['me'],
  responses: { 200: jsonResponse('Outlets', requestableOutletsSchema) },
});
documentRoute({
  method: 'post', path: '/me/outlet-requests', summary: 'Request access to an outlet; mails the administrators', tags: ['me'],
  request: { body: jsonBody(outletRequestBodySchema) },
  responses: { 201: jsonResponse('Request created', outletRequestSchema), 409: problemResponse('Already assigned or already requested') },
});

/** The session family of the bearer token (its `sid`), so a password change keeps this session. */
function currentFamilyId(req: Request, secret: string): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
  return bearer ? verifyAccessToken(secret, bearer).sid : undefined;
}

/** Where the request came from (audit) and the origin its mail links use. */
function requestMeta(req: Request, config: AppContext['config']) {
  return { ip: req.ip, userAgent: req.get('user-agent'), linkBase: authService.linkBaseFor(config, { protocol: req.protocol, host: req.get('host') }) };
}

/** /api/v1/me: profile, password, roles, permissions, outlets, selection, outlet requests (spec 000, ARCHITECTURE §5). */
export function meRoutes(ctx: AppContext) {
  const { db, config } = ctx;
  const r = Router();
  const signedIn = authenticate(db, config.jwtSecret);

  r.get('/', signedIn, async (req, res) => {
    res.json(await meService.getMe(db, principalOf(req)));
  });

  r.patch('/profile', signedIn, async (req, res) => {
    const input = updateProfileBodySchema.parse(req.body);
    res.json(await meService.updateProfile(ctx, principalOf(req), input, requestMeta(req, config)));
  });

  r.post('/password', signedIn, async (req, res) => {
    const input = changePasswordBodySchema.parse(req.body);
    const me = principalOf(req);
    await authService.changePassword(ctx, { userId: me.userId, currentFamilyId: currentFamilyId(req, config.jwtSecret) }, input, requestMeta(req, config));
    res.status(204).end();
  });

  r.get('/roles', signedIn, async (req, res) => {
    res.json({ items: await meService.listMyRoles(db, principalOf(req).userId) });
  });

  r.get('/permissions', signedIn, (req, res) => {
    res.json({ codes: [...principalOf(req).permissions].sort() });
  });

  r.get('/permissions/:code', signedIn, (req, res) => {
    const { code } = permissionCodeParamsSchema.parse(req.params);
    res.json({ granted: principalOf(req).permissions.has(code) });
  });

  r.get('/outlets', signedIn, requirePermission(READ_OUTLETS), async (req, res) => {
    res.json({ items: await meService.listMyOutlets(db, principalOf(req).userId) });
  });

  r.get('/selection', signedIn, requirePermission(READ_OUTLETS), async (req, res) => {
    res.json(await meService.getSelection(db, principalOf(req).userId));
  });

  r.put('/selection', signedIn, requirePermission(READ_OUTLETS), async (req, res) => {
    const input = putSelectionBodySchema.parse(req.body);
    res.json(await meService.putSelection(db, principalOf(req).userId, input));
  });

  r.get('/requestable-outlets', signedIn, async (req, res) => {
    res.json({ items: await meService.listRequestableOutlets(db, principalOf(req).userId) });
  });

  r.post('/outlet-requests', signedIn, async (req, res) => {
    const { outletId } = outletRequestBodySchema.parse(req.body);
    res.status(201).json(await meService.requestOutlet(ctx, principalOf(req), outletId, requestMeta(req, config)));
  });

  return r;
}
