import {
  OUTLET_REQUEST_MESSAGES,
  PERMISSIONS,
  type MyPermissions,
  type Me,
  type MeBoot,
  type MyOutlet,
  type MyRole,
  type OutletRequest,
  type Profile,
  type RequestableOutlet,
  type Selection,
} from '@portal/contracts';
import type { AppContext } from '../../context';
import type { Db } from '../../db/knex';
import { ConflictError, NotFoundError, UnauthenticatedError } from '../../http/errors';
import type { Principal } from '../access/access.service';
import { canShopAt, codesByPlace, isMember, can, holdsAnywhere } from '../access/access.service';
import { assertPhoneFree, phoneTakenError, recordAudit, type RequestMeta } from '../auth/auth.service';
import * as repo from './me.repository';
import { outletRequestMail } from './me.mail';
import { outletRequestApproverEmails } from '../invitations/outlet-requests.service';
import { mayReachRow } from '../access/rows';
import { listOutletStores } from '../outlets/outlets.service';
import { feedHorizon } from '../orders/orders.service';

/** The profile shown when the user has no user_profiles row yet: built from id and email (spec 000 §3). */
const blankProfile = (userId: string, email: string): Profile => ({
  userId,
  email,
  firstName: null,
  lastName: null,
  fullName: null,
  phone: null,
  lastSelectedOutletId: null,
  lastSelectedStoreId: null,
});

/** GET /me: account, profile (blank when none), roles (spec order) and permission codes (sorted). */
export async function getMe(db: Db, actor: Principal): Promise<Me> {
  const account = await repo.findAccount(db, actor.userId);
  if (!account) throw new UnauthenticatedError();
  const [profile, roles] = await Promise.all([repo.findProfile(db, account.id), repo.listRoles(db, account.id)]);
  return { user: account, profile: profile ?? blankProfile(account.id, account.email), roles, permissions: [...actor.permissions].sort() };
}

/**
 * Saves first name, last name and phone (E.164, null when empty) and audits it with the request's IP (`meta`);
 * email stays read-only. A phone another active account signs in with: 409 `phone_taken`. Returns the profile.
 */
export async function updateProfile(
  db: Db,
  actor: Principal,
  input: { firstName: string; lastName: string; phone: string | null },
  meta: RequestMeta,
): Promise<Profile> {
  await assertPhoneFree(db, actor.userId, input.phone);
  return db.transaction(async (trx) => {
    await repo.upsertProfileNames(trx, actor.userId, input).catch((e: unknown) => {
      throw phoneTakenError(e);
    });
    await recordAudit(trx, {
      action: 'profile.updated',
      userId: actor.userId,
      actorEmail: actor.email,
      ip: meta.ip,
      entityType: 'user_profile',
      entityId: actor.userId,
    });
    // Just written above: the profile is there (404 only should the account vanish meanwhile).
    const profile = await repo.findProfile(trx, actor.userId);
    if (!profile) throw new NotFoundError('Profile not found');
    return profile;
  });
}

/**
 * GET /me/permissions (ARCHITECTURE §11): every code held anywhere (`codes`, what the SPA shows or hides), the
 * codes held everywhere (`global`), and the codes held at each board, store and outlet a grant names. One query.
 */
export async function myPermissions(db: Db, actor: Principal): Promise<MyPermissions> {
  const rows = await codesByPlace(db, actor.userId);
  // The places of one scope type (their grants always name one: scope_id is set).
  const at = (t: string) => rows.flatMap((r) => (r.scope_type === t && r.scope_id !== null ? [{ id: r.scope_id, codes: r.codes }] : []));
  return {
    codes: [...actor.permissions].sort(),
    global: [...actor.globalPermissions].sort(),
    boards: at('board').map((r) => ({ boardId: r.id, codes: r.codes })),
    stores: at('store').map((r) => ({ storeId: r.id, codes: r.codes })),
    outlets: at('outlet').map((r) => ({ outletId: r.id, codes: r.codes })),
  };
}

/**
 * GET /me/permissions/{code}: is the code held anywhere, or — with `outletId`, `storeId` or `boardId` — at that
 * place (through a grant covering it: ARCHITECTURE §11)?
 */
export async function holdsPermission(
  db: Db,
  actor: Principal,
  code: string,
  at: { outletId?: number; storeId?: number; boardId?: number },
): Promise<boolean> {
  if (at.outletId !== undefined) return can(db, actor, code, { type: 'outlet', id: at.outletId });
  if (at.storeId !== undefined) return can(db, actor, code, { type: 'store', id: at.storeId });
  if (at.boardId !== undefined) return can(db, actor, code, { type: 'board', id: at.boardId });
  return holdsAnywhere(actor, code);
}

/** The user's roles sorted by role_level descending (spec 000 §6). */
export function listMyRoles(db: Db, actor: Principal): Promise<MyRole[]> {
  return repo.listRoles(db, actor.userId);
}

/** The accessible-outlet records with board and active stores (spec 000 §3). */
export async function listMyOutlets(db: Db, actor: Principal): Promise<MyOutlet[]> {
  return toMyOutlets(await repo.listAccessibleOutlets(db, actor.userId));
}

/** The accessible-outlet records as GET /me/outlets answers them (without the assignment's last store). */
const toMyOutlets = (outlets: repo.AccessibleOutlet[]): MyOutlet[] => outlets.map(({ assignmentLastStoreId: _omit, ...o }) => o);

/**
 * The current outlet and store (spec 000 §4). Outlet: the saved preference when still accessible, else
 * the first accessible outlet (by name). Store, among the outlet's active stores: the saved store, else
 * the outlet assignment's last store, else the outlet's default store, else the first one. Invalid saved
 * choices are cleared and fallback choices saved to the profile.
 */
export function getSelection(db: Db, actor: Principal): Promise<Selection> {
  return resolveSelection(db, actor.userId);
}

/** `accessible`: the user's accessible outlets when the caller has read them already (GET /me/boot), else read here. */
async function resolveSelection(db: Db, userId: string, accessible?: repo.AccessibleOutlet[]): Promise<Selection> {
  const [outlets, profile] = await Promise.all([accessible ?? repo.listAccessibleOutlets(db, userId), repo.findProfile(db, userId)]);
  const saved = { outletId: profile?.lastSelectedOutletId ?? null, storeId: profile?.lastSelectedStoreId ?? null };
  const outlet = outlets.find((o) => o.outletId === saved.outletId) ?? outlets[0];
  const candidates = outlet
    ? [saved.outletId === outlet.outletId ? saved.storeId : null, outlet.assignmentLastStoreId, outlet.defaultStoreId, outlet.storeIds[0]]
    : [];
  const storeId = (outlet && candidates.find((s) => s != null && outlet.storeIds.includes(s))) ?? null;
  const selection = { outletId: outlet?.outletId ?? null, storeId };
  if (selection.outletId !== saved.outletId || selection.storeId !== saved.storeId) {
    await repo.upsertSelection(db, userId, selection.outletId, selection.storeId);
  }
  return selection;
}

/**
 * Saves a chosen outlet and store (spec 000 §4): the outlet must be one of the user's active outlets and
 * the store (when given) an active store linked to that outlet, else 404. Choosing an outlet with
 * `storeId: null` resets the store; the answer is the resolved selection (the store falls back as GET does).
 */
export async function putSelection(db: Db, actor: Principal, input: { outletId: number; storeId: number | null }): Promise<Selection> {
  const { userId } = actor;
  if (!(await isMember(db, userId, input.outletId))) throw new NotFoundError('Outlet not found');
  if (input.storeId !== null && !(await canShopAt(db, userId, input.storeId, input.outletId))) throw new NotFoundError('Store not found');
  await db.transaction(async (trx) => {
    await repo.upsertSelection(trx, userId, input.outletId, input.storeId);
    if (input.storeId !== null) await repo.updateAssignmentLastStore(trx, userId, input.outletId, input.storeId);
  });
  return resolveSelection(db, userId);
}

/**
 * GET /me/boot (issue 26): a signed-in page load's first reads in one answer, for index.html's boot script (one
 * request and one connection instead of four, and no round trip between the selection and its stores). `me` is
 * GET /me; with bcc.outlets.read_assigned held anywhere, `outlets` and `selection` are GET /me/outlets and
 * GET /me/selection (which saves a fallback choice, as that route does); `stores` is GET /outlets/{id}/stores for
 * the selected outlet when the caller holds the code there (ARCHITECTURE §11) and the outlet is active. A part its
 * own route would refuse is null, so the app asks that route and shows its refusal as before. `orderFeedSeq`, the
 * order feed's horizon (every event up to it has committed), is read first: the order lists the page asks for after
 * this answer include every event up to it (the first live stream, whose `ready` id is the horizon when it opened,
 * then asks them again only if the feed moved on).
 */
export async function getBoot(db: Db, actor: Principal): Promise<MeBoot> {
  const orderFeedSeq = await feedHorizon(db);
  const readOutlets = [PERMISSIONS.outletsReadAssigned];
  const mayReadOutlets = readOutlets.some((c) => actor.permissions.has(c));
  // The outlets are read once for both parts. The selection before /me: resolving it may save a fallback choice,
  // which /me's profile then shows.
  const accessible = mayReadOutlets ? await repo.listAccessibleOutlets(db, actor.userId) : null;
  const selection = accessible ? await resolveSelection(db, actor.userId, accessible) : null;
  const outletId = selection?.outletId ?? null;
  const stores = async () =>
    outletId !== null && (await mayReachRow(db, actor, 'outlet', outletId, readOutlets))
      ? listOutletStores(db, actor, { outletId }).catch((e: unknown) => {
          if (e instanceof NotFoundError) return null;
          throw e;
        })
      : null;
  const [me, storesOfOutlet] = await Promise.all([getMe(db, actor), stores()]);
  return { me, outlets: accessible && { items: toMyOutlets(accessible) }, selection, stores: storesOfOutlet, orderFeedSeq };
}

/** Active outlets the user is not assigned to (spec 000 §6). */
export function listRequestableOutlets(db: Db, actor: Principal): Promise<RequestableOutlet[]> {
  return repo.listRequestableOutlets(db, actor.userId);
}

/**
 * Requests access to an outlet (spec 000 §2 Request more Outlets): it must exist and be active (else
 * 404), not be assigned already (409) and not be requested already (409). Stores a pending request,
 * audits it, and queues one mail per administrator who may decide it (manages that outlet)
 * in the same transaction.
 */
export async function requestOutlet(
  ctx: AppContext,
  actor: Principal,
  { outletId }: { outletId: number },
  meta: RequestMeta & { linkBase: string },
): Promise<OutletRequest> {
  const { db } = ctx;
  const outlet = await repo.findOutletForRequest(db, actor.userId, outletId);
  // The system admin outlet is granted with admin roles, never requested (spec 000 §5 invitation rules).
  if (!outlet || !outlet.active || outlet.isAdminOutlet) throw new NotFoundError(OUTLET_REQUEST_MESSAGES.invalidOutlet);
  if (outlet.assigned) throw new ConflictError(OUTLET_REQUEST_MESSAGES.alreadyAssigned);
  if (await repo.hasPendingRequest(db, actor.userId, outletId)) throw new ConflictError(OUTLET_REQUEST_MESSAGES.alreadyRequested);
  const profile = await repo.findProfile(db, actor.userId);
  const requesterName = [profile?.firstName, profile?.lastName].filter(Boolean).join(' ') || actor.email;
  return db.transaction(async (trx) => {
    const created = await repo.insertOutletRequest(trx, actor.userId, outletId);
    await recordAudit(trx, {
      action: 'outlet_request.created',
      userId: actor.userId,
      actorEmail: actor.email,
      ip: meta.ip,
      entityType: 'outlet_request',
      entityId: String(created.id),
      details: { outletId },
    });
    for (const to of await outletRequestApproverEmails(trx, outletId)) {
      await ctx.mailer.enqueue(
        trx,
        outletRequestMail(to, {
          requesterName,
          requesterEmail: actor.email,
          outletName: outlet.name,
          outletCode: outlet.outletCode,
          adminUrl: `${meta.linkBase}/admin`,
        }),
      );
    }
    return { id: created.id, outletId, outletName: outlet.name, status: 'pending' as const, createdAt: created.createdAt };
  });
}
