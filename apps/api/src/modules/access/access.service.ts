import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import * as repo from './access.repository';
import type { Actor, Principal, Scope } from './access.repository';

/**
 * Who may do what, where (ARCHITECTURE §4, §11). Every data-scope rule of the API lives in this module; other
 * modules ask it and never re-derive scope:
 * - `can(db, actor, codes, scope)`: does the actor hold one of `codes` at that place (one query, or none when
 *   a global grant answers)? Out of scope answers 404 at the caller, like an absent row.
 * - `reach(db, actor, codes, kind)`: the ids of the boards, stores, outlets or catalogs (board ids) the actor's
 *   grants holding `codes` cover, as a subquery for `whereIn`; `null` when a global grant covers everything.
 * - `usersInReach`: the users holding a grant at a place the actor reaches (user management).
 * - memberships: the outlets a person works at (holds a grant at) — where they shop, and what /me/outlets lists.
 * - levels: the most privileged role level of a person, anywhere or at a place (the granting rules).
 * The granting rules themselves are in grants.service.ts; API keys' reach is `keyReaches`.
 */
export type { Principal, Actor, Scope } from './access.repository';
export type { GrantRow, GrantKey } from './grants.repository';
export type { ApiKeyPrincipal } from './api-keys';
export { findPrincipal, shopReach, memberOutletIds, isMember, browseStoreSql, bestLevel, holdersAt } from './access.repository';
export { codesByPlace, grantsOf, insertGrants, deleteGrants, listRoles, rolesByIds } from './grants.repository';

type Conn = Db | Knex.Transaction;

/** Is this grant held at an outlet (its `scopeId` is then the outlet's id)? A type guard for filters. */
export const atOutlet = <G extends { scopeType: string; scopeId: number | null }>(
  g: G,
): g is G & { scopeType: 'outlet'; scopeId: number } => g.scopeType === 'outlet' && g.scopeId !== null;
const list = (codes: string | readonly string[]) => (typeof codes === 'string' ? [codes] : codes);

/** Does the actor hold a global grant carrying one of `codes` (it then reaches everything)? */
export const holdsGlobally = (actor: Pick<Actor, 'globalPermissions'>, codes: string | readonly string[]) =>
  list(codes).some((c) => actor.globalPermissions.has(c));

/** Does the actor hold one of `codes` anywhere (the route gate; the SPA's menus)? */
export const holdsAnywhere = (actor: Pick<Actor, 'permissions'>, codes: string | readonly string[]) =>
  list(codes).some((c) => actor.permissions.has(c));

/** Is the actor a super administrator (a global grant of bcc.users.super_admin)? */
export const isGlobalAdmin = (actor: Pick<Actor, 'globalPermissions'>) => actor.globalPermissions.has('bcc.users.super_admin');

/**
 * The one permission check (ARCHITECTURE §11): does the actor hold one of `codes` through a grant covering
 * `scope`? A global grant answers at once; a code held nowhere answers false without a query; otherwise one
 * query. `{ type: 'global' }` asks for a global grant.
 */
export async function can(db: Conn, actor: Actor, codes: string | readonly string[], scope: Scope): Promise<boolean> {
  const c = list(codes);
  if (holdsGlobally(actor, c)) return true;
  if (!holdsAnywhere(actor, c) || scope.type === 'global') return false;
  return repo.holdsAt(db, actor.userId, c, scope);
}

/**
 * The places of `kind` where the actor holds one of `codes`, as a subquery of ids (column `id`) for
 * `whereIn`: boards, stores (a board grant reaches its stores), outlets (a store grant reaches the outlets
 * linked to it, a board grant its outlets; system admin outlets only through a global grant) or `catalog`
 * (the boards whose items the actor reaches, from their stores too). `null`: everything (a global grant).
 */
export function reach(
  db: Conn,
  actor: Actor,
  codes: string | readonly string[],
  kind: Exclude<Scope['type'], 'global'>,
): Knex.QueryBuilder | null {
  const c = list(codes);
  if (holdsGlobally(actor, c)) return null;
  if (!holdsAnywhere(actor, c)) return repo.noRows(db, 'id');
  return repo.reachQuery(db, actor.userId, c, kind);
}

/** `reach` as a list of ids (`null`: everything). */
export async function reachIds(db: Conn, actor: Actor, codes: string | readonly string[], kind: Exclude<Scope['type'], 'global'>) {
  const q = reach(db, actor, codes, kind);
  return q ? repo.idsOf(q) : null;
}

/** Restricts `q` (which has a place id column `column` of `kind`) to the places the actor reaches with `codes`. */
export function whereInReach(
  db: Conn,
  actor: Actor,
  codes: string | readonly string[],
  kind: Exclude<Scope['type'], 'global'>,
  q: Knex.QueryBuilder,
  column: string,
): Knex.QueryBuilder {
  const r = reach(db, actor, codes, kind);
  return r ? q.whereIn(column, r) : q;
}

/**
 * Restricts `q` (rows held by a store or a board: `store_id` or `board_id` set, as API keys and webhooks are)
 * to rows at places the actor reaches with `codes` — a store-held row through its store, a board-held row
 * through its board (a store grant never reaches a board's rows).
 */
export function whereStoreOrBoardInReach(
  db: Conn,
  actor: Actor,
  codes: string | readonly string[],
  q: Knex.QueryBuilder,
): Knex.QueryBuilder {
  const stores = reach(db, actor, codes, 'store');
  const boards = reach(db, actor, codes, 'board');
  if (!stores || !boards) return q;
  return q.where((w) => w.whereIn('store_id', stores).orWhereIn('board_id', boards));
}

/**
 * The users the actor reaches with `codes` (a subquery of `user_id`): those holding a grant at an outlet, a store
 * or a board the actor's grants cover. `null`: every user (a global grant).
 */
export function usersInReach(db: Conn, actor: Actor, codes: string | readonly string[]): Knex.QueryBuilder | null {
  const c = list(codes);
  if (holdsGlobally(actor, c)) return null;
  if (!holdsAnywhere(actor, c)) return repo.noRows(db, 'user_id');
  return repo.usersReachQuery(db, actor.userId, c);
}

/** Is this user in the actor's reach with `codes` (themselves excepted: callers decide)? */
export async function reachesUser(db: Conn, actor: Actor, codes: string | readonly string[], userId: string): Promise<boolean> {
  const r = usersInReach(db, actor, codes);
  return r ? repo.selectsUser(db, r, userId) : repo.userExists(db, userId);
}

/**
 * Acting for an outlet (shopping, checking out, reordering): the actor is a member of the active outlet
 * (linked to the active store, when given) and holds one of `codes` there. One query.
 */
export async function mayActAt(db: Conn, actor: Actor, codes: string | readonly string[], outletId: number, storeId?: number) {
  if (!holdsAnywhere(actor, codes)) return false;
  return repo.mayActAt(db, actor.userId, list(codes), outletId, storeId);
}

/**
 * `mayActAt` as a SQL condition over the SQL expressions of the outlet and store (e.g. `c.outlet_id`,
 * `c.store_id`), for a statement that checks it with its own read (one round trip instead of two); `false`
 * when the actor holds none of `codes` anywhere. See access.repository's mayActAtSql for the bindings.
 */
export function mayActAtSql(actor: Actor, codes: string | readonly string[], outletSql: string, storeSql?: string) {
  if (!holdsAnywhere(actor, codes)) return { sql: 'false', bindings: [] as repo.Bindings };
  return repo.mayActAtSql(
    actor.userId,
    list(codes),
    { sql: outletSql, bindings: [] },
    storeSql === undefined ? undefined : { sql: storeSql, bindings: [] },
  );
}

/**
 * May the actor browse a store's catalog (spec 001 §2)? They shop there (a member of an active outlet linked to
 * the active store, holding one of the shop codes there) or hold one of the view codes at the store (a store
 * manager, a board administrator). `codes` are the route's: bcc.carts.use counts as shopping, the others as viewing.
 */
export async function mayBrowseStore(db: Conn, actor: Actor, storeId: number, codes: readonly string[]): Promise<boolean> {
  const { shop, view } = splitBrowseCodes(codes);
  if (holdsGlobally(actor, view)) return repo.storeExists(db, storeId);
  return repo.canBrowseStore(db, actor.userId, storeId, shop, view);
}

/** The browse codes split into shopping (bcc.carts.use) and viewing (the rest). */
export function splitBrowseCodes(codes: readonly string[]) {
  return { shop: codes.filter((c) => c === 'bcc.carts.use'), view: codes.filter((c) => c !== 'bcc.carts.use') };
}

/**
 * Is the store one the user shops at: an active store linked to an active outlet they are a member of
 * (through that outlet, when given)? Membership only — the codes are the caller's to check (mayActAt).
 */
export async function canShopAt(db: Conn, userId: string, storeId: number, outletId?: number): Promise<boolean> {
  return repo.shopsAt(db, userId, storeId, outletId);
}

/** The API-key side (ARCHITECTURE §10): a key reaches its own store, or every store of its board. */
export const keyReaches = (key: { storeId: number | null; boardId: number | null }, store: { id: number; boardId: number }) =>
  key.storeId ? key.storeId === store.id : key.boardId === store.boardId;

/** The Actor of a request: the principal plus the request's address (for audited writes). */
export const adminActor = (actor: Principal, req: { ip?: string }): Actor => ({
  userId: actor.userId,
  email: actor.email,
  permissions: actor.permissions,
  globalPermissions: actor.globalPermissions,
  ip: req.ip ?? null,
});

/** The audit log's `AuditActor` of an Actor. */
export const auditActor = (a: Actor) => ({ userId: a.userId, email: a.email });
