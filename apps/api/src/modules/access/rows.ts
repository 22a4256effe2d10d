import { PERMISSIONS } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { Actor } from './access.repository';
import { can, holdsGlobally, keyReaches, mayActAt, mayBrowseStore, reachIds, reachesUser } from './access.service';
import * as rows from './rows.repository';

/**
 * The rows routes act on, and where each one's permission must be held (ARCHITECTURE §11). A route declares
 * `scope: { row: <kind>, id: (input) => … }` (http/route.ts); before its handler runs, `mayReachRow` answers
 * whether the caller holds one of the route's codes at that row's place, and a row out of reach (or absent)
 * answers 404 like a missing one. The kinds:
 *
 * | kind | the id names | passes when the caller… |
 * |---|---|---|
 * | board | a board | holds a code at the board |
 * | store | a store | holds a code at the store (a board grant reaches its stores) |
 * | browse | a store | belongs to a linked outlet holding a code there, or holds a view code at the store itself |
 * | outlet | an outlet | holds a code at the outlet (a store grant reaches its linked outlets, a board grant its outlets) |
 * | item | an item | holds a code at the item's catalog (its board, or one of the board's stores) |
 * | itemEdit | an item | holds a code at the item's board |
 * | user | a user | is that user (the service applies the self rules), or reaches a place where the user holds a grant |
 * | order | an order | placed it, or holds bcc.orders.store.manage at its store, or bcc.orders.outlet.manage at its outlet |
 * | storeOrder | an order | holds a code at the order's store |
 * | ownOrder | an order | placed it |
 * | cart | a cart | owns it and may act for its outlet at its store |
 * | shop | { outletId, storeId } | is a member of the outlet, linked to the store, and holds a code there |
 * | outletMember | an outlet | is a member of the outlet and holds a code there (its order guides, issue 27) |
 * | orderGuide | an order guide | is a member of the guide's outlet and holds a code there |
 * | storeOrBoard | { storeId, boardId } (a new key or webhook) | holds a code at the store, else at the board (neither: the service refuses) |
 * | apiKey, webhook | a key / endpoint | holds a code at its store or board |
 * | credential | a payment credential | holds a code at its store |
 * | invitation | an invitation | sent it, or holds a code at every place it names |
 * | outletRequest | an outlet request | holds a code at the requested outlet |
 * | keyStore | a store (API-key routes) | the key reaches the store (its own, or one of its board's) |
 * | keyOrder | an order number (API-key routes) | the key reaches the order's store |
 * | keyBoard | — (API-key routes: the key's board's catalog) | the key is a board's key (a store's key is refused) |
 */
export type RowKind =
  | 'board'
  | 'store'
  | 'browse'
  | 'outlet'
  | 'item'
  | 'itemEdit'
  | 'user'
  | 'order'
  | 'storeOrder'
  | 'ownOrder'
  | 'cart'
  | 'shop'
  | 'outletMember'
  | 'orderGuide'
  | 'storeOrBoard'
  | 'apiKey'
  | 'webhook'
  | 'credential'
  | 'invitation'
  | 'outletRequest'
  | 'keyStore'
  | 'keyOrder'
  | 'keyBoard';

export const ROW_KINDS: readonly RowKind[] = [
  'board',
  'store',
  'browse',
  'outlet',
  'item',
  'itemEdit',
  'user',
  'order',
  'storeOrder',
  'ownOrder',
  'cart',
  'shop',
  'outletMember',
  'orderGuide',
  'storeOrBoard',
  'apiKey',
  'webhook',
  'credential',
  'invitation',
  'outletRequest',
  'keyStore',
  'keyOrder',
  'keyBoard',
];

const int = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n < 2 ** 31 ? n : null;
};
/** A property of a route's composite id (`{ outletId, storeId }`…), unknown until checked; undefined when absent. */
const field = (v: unknown, key: string): unknown => (typeof v === 'object' && v !== null ? Reflect.get(v, key) : undefined);
const uuid = (v: unknown): string | null =>
  typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v) ? v : null;

/** A store's or a board's row (api keys, webhooks): reached through the store, else the board. */
async function atStoreOrBoard(
  db: Db,
  actor: Actor,
  codes: readonly string[],
  row: { store_id: number | null; board_id: number | null } | undefined,
) {
  if (!row) return false;
  if (row.store_id) return can(db, actor, codes, { type: 'store', id: row.store_id });
  if (row.board_id) return can(db, actor, codes, { type: 'board', id: row.board_id });
  return holdsGlobally(actor, codes);
}

/**
 * May a signed-in user act on this row with one of `codes` (see the table above)? False also when the row
 * does not exist or the id is malformed.
 */
export async function mayReachRow(db: Db, actor: Actor, kind: RowKind, id: unknown, codes: readonly string[]): Promise<boolean> {
  switch (kind) {
    case 'board':
    case 'store':
    case 'outlet': {
      const n = int(id);
      if (n === null) return false;
      if (!(await rows.placeExists(db, kind, n))) return false;
      return can(db, actor, codes, { type: kind, id: n });
    }
    case 'browse': {
      const n = int(id);
      return n !== null && mayBrowseStore(db, actor, n, codes);
    }
    case 'item':
    case 'itemEdit': {
      const n = int(id);
      const item = n === null ? undefined : await rows.itemBoard(db, n);
      if (!item) return false;
      return can(db, actor, codes, { type: kind === 'item' ? 'catalog' : 'board', id: item.board_id });
    }
    case 'user': {
      const u = uuid(id);
      if (!u || !(await rows.userExists(db, u))) return false;
      return u === actor.userId || reachesUser(db, actor, codes, u);
    }
    case 'order':
    case 'storeOrder':
    case 'ownOrder': {
      const n = int(id);
      const o = n === null ? undefined : await rows.orderPlaces(db, n);
      if (!o) return false;
      if (kind === 'ownOrder') return o.user_id === actor.userId;
      if (kind === 'storeOrder') return can(db, actor, codes, { type: 'store', id: o.store_id });
      if (o.user_id === actor.userId) return true;
      if (await can(db, actor, PERMISSIONS.ordersStoreManage, { type: 'store', id: o.store_id })) return true;
      return o.outlet_id !== null && can(db, actor, PERMISSIONS.ordersOutletManage, { type: 'outlet', id: o.outlet_id });
    }
    case 'cart': {
      const n = int(id);
      const c = n === null ? undefined : await rows.cartPlaces(db, n);
      return Boolean(c && c.user_id === actor.userId && (await mayActAt(db, actor, codes, c.outlet_id, c.store_id)));
    }
    case 'shop': {
      const outletId = int(field(id, 'outletId'));
      const storeId = int(field(id, 'storeId'));
      return outletId !== null && storeId !== null && mayActAt(db, actor, codes, outletId, storeId);
    }
    case 'outletMember': {
      const n = int(id);
      return n !== null && mayActAt(db, actor, codes, n);
    }
    case 'orderGuide': {
      const n = int(id);
      const g = n === null ? undefined : await rows.guideOutlet(db, n);
      return Boolean(g && (await mayActAt(db, actor, codes, g.outlet_id)));
    }
    case 'storeOrBoard': {
      const p = { storeId: field(id, 'storeId'), boardId: field(id, 'boardId') };
      if (p.storeId != null) {
        const n = int(p.storeId);
        return n !== null && (await rows.placeExists(db, 'store', n)) && can(db, actor, codes, { type: 'store', id: n });
      }
      if (p.boardId != null) {
        const n = int(p.boardId);
        return n !== null && (await rows.placeExists(db, 'board', n)) && can(db, actor, codes, { type: 'board', id: n });
      }
      return true;
    }
    case 'apiKey':
    case 'webhook': {
      const u = uuid(id);
      if (!u) return false;
      return atStoreOrBoard(db, actor, codes, await rows.holderOf(db, kind, u));
    }
    case 'credential': {
      const n = int(id);
      const c = n === null ? undefined : await rows.credentialStore(db, n);
      return Boolean(c && (await can(db, actor, codes, { type: 'store', id: c.store_id })));
    }
    case 'invitation': {
      const u = uuid(id);
      const inv = u ? await rows.invitationPlaces(db, u) : undefined;
      if (!inv) return false;
      if (inv.invited_by === actor.userId || holdsGlobally(actor, codes)) return true;
      const places: ['outlet' | 'store' | 'board', number[]][] = [
        ['outlet', inv.outlet_ids ?? []],
        ['store', inv.store_ids ?? []],
        ['board', inv.board_ids ?? []],
      ];
      if (!places.some(([, ids]) => ids.length)) return false;
      for (const [kind, ids] of places) {
        if (!ids.length) continue;
        const reached = await reachIds(db, actor, codes, kind);
        if (reached && !ids.every((i) => reached.includes(i))) return false;
      }
      return true;
    }
    case 'outletRequest': {
      const n = int(id);
      const r = n === null ? undefined : await rows.outletRequestOutlet(db, n);
      return Boolean(r && (await can(db, actor, codes, { type: 'outlet', id: r.outlet_id })));
    }
    case 'keyStore':
    case 'keyOrder':
    case 'keyBoard':
      return false; // API-key rows: see mayKeyReachRow
  }
}

/** The API-key kinds: may the key act on this row (its store, or one of its board's)? */
export async function mayKeyReachRow(db: Db, key: { storeId: number | null; boardId: number | null }, kind: RowKind, id: unknown) {
  if (kind === 'keyBoard') return key.boardId !== null;
  if (kind === 'keyStore') {
    const n = int(id);
    const s = n === null ? undefined : await rows.storeBoard(db, n);
    return Boolean(s && keyReaches(key, { id: s.id, boardId: s.board_id }));
  }
  if (kind === 'keyOrder') {
    const number = typeof id === 'string' ? id : null;
    const o = number ? await rows.orderStoreByNumber(db, number) : undefined;
    return Boolean(o && keyReaches(key, { id: o.id, boardId: o.board_id }));
  }
  return false;
}
