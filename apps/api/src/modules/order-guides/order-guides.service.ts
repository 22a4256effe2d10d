import {
  ORDERING_MESSAGES,
  PERMISSIONS,
  PROBLEM_CODES,
  type CreateOrderGuide,
  type GuideToCartBody,
  type GuideToCartResult,
  type OrderGuide,
  type OrderGuideLine,
  type OrderGuideList,
  type UpdateOrderGuide,
} from '@portal/contracts';
import type { Db } from '../../db/knex';
import { uniqueViolation } from '../../db/unique-violation';
import { ConflictError, NotFoundError } from '../../http/errors';
import { casePack, effectiveRule } from '../../lib/quantity-rules';
import { mayActAt, type Actor } from '../access/access.service';
import * as carts from '../carts/carts.service';
import { fillCart } from '../carts/quick-order.service';
import * as repo from './order-guides.repository';

/**
 * Order guides (issue 27, ARCHITECTURE §5 "The licensee's ordering week"): named lists of par levels (bottles the
 * outlet wants on its shelf) of an outlet at one of its stores, shared by the outlet's members who hold
 * bcc.carts.use there (the outlet's buyers; its viewers too, who may build carts). The routes check the row
 * (modules/access rows `outletMember`, `orderGuide`): another outlet's guide answers 404 like a missing one.
 */

/** Who may read and write an outlet's guides: the shop code, held at the outlet by a member (ARCHITECTURE §11). */
export const GUIDE_CODES = [PERMISSIONS.cartsUse] as const;

const notFound = () => new NotFoundError(ORDERING_MESSAGES.guideNotFound);
const nameTaken = (e: unknown) => {
  if (uniqueViolation(e)?.constraint === 'order_guides_outlet_name_unique')
    throw new ConflictError(ORDERING_MESSAGES.guideNameTaken, PROBLEM_CODES.guideNameTaken);
  throw e;
};

function lineView(l: repo.GuideLineRow): OrderGuideLine {
  return {
    itemCode: l.itemCode,
    parQuantity: l.parQuantity,
    position: l.position,
    name: l.name,
    carried: l.carried,
    stock: l.carried ? l.stock : null,
    bottlesPerCase: casePack(l.bottlesPerCase),
    quantityRule: effectiveRule({
      minQty: l.minQty ?? 1,
      maxQty: l.maxQty,
      increment: l.increment ?? 1,
      bottlesPerCase: l.bottlesPerCase,
      policy: l.policy,
    }),
  };
}

async function view(db: Db, g: repo.GuideRow): Promise<OrderGuide> {
  const lines = await repo.findLines(db, g.id);
  return {
    id: g.id,
    guideId: g.id,
    outletId: g.outletId,
    storeId: g.storeId,
    storeName: g.storeName,
    name: g.name,
    createdBy: g.createdBy,
    createdAt: new Date(g.createdAt).toISOString(),
    updatedAt: new Date(g.updatedAt).toISOString(),
    lines: lines.map(lineView),
  };
}

/** The guide if the caller may act at its outlet (the route checked it; checked again inside transactions). */
async function reachableGuide(db: Db, actor: Actor, guideId: number): Promise<repo.GuideRow> {
  const g = await repo.findGuide(db, guideId);
  if (!g || !(await mayActAt(db, actor, GUIDE_CODES, g.outletId))) throw notFound();
  return g;
}

/** GET /outlets/{outletId}/order-guides: the outlet's guides (of one store with `storeId`), by name. */
export async function listGuides(db: Db, _actor: Actor, outletId: number, storeId?: number): Promise<OrderGuideList> {
  const rows = await repo.findGuides(db, outletId, storeId);
  return {
    items: rows.map((g) => ({
      id: g.id,
      guideId: g.id,
      outletId: g.outletId,
      storeId: g.storeId,
      storeName: g.storeName,
      name: g.name,
      lineCount: g.lineCount,
      updatedAt: new Date(g.updatedAt).toISOString(),
    })),
  };
}

/**
 * POST /outlets/{outletId}/order-guides: a new guide of the outlet at `storeId` (a store serving the outlet,
 * else 404), lines in the given order. 409 `guide_name_taken` for a name the outlet already uses. Lines may name
 * codes the store does not carry (they are shown as not carried, and skipped when filling a cart).
 */
export async function createGuide(db: Db, actor: Actor, outletId: number, body: CreateOrderGuide): Promise<OrderGuide> {
  if (!(await mayActAt(db, actor, GUIDE_CODES, outletId, body.storeId))) throw new NotFoundError(ORDERING_MESSAGES.storeNotLinked);
  const id = await db
    .transaction(async (trx) => {
      const guideId = await repo.insertGuide(trx, { outletId, storeId: body.storeId, name: body.name, createdBy: actor.userId });
      await repo.replaceLines(trx, guideId, body.lines);
      return guideId;
    })
    .catch(nameTaken);
  return getGuide(db, actor, id);
}

/** GET /order-guides/{guideId}: the guide with its lines by position; 404 outside the caller's outlets. */
export async function getGuide(db: Db, actor: Actor, guideId: number): Promise<OrderGuide> {
  return view(db, await reachableGuide(db, actor, guideId));
}

/**
 * PATCH /order-guides/{guideId}: a new name and/or the whole list of lines (their order = the new positions), in
 * one transaction. 409 `guide_name_taken`; 404 outside the caller's outlets.
 */
export async function updateGuide(db: Db, actor: Actor, guideId: number, body: UpdateOrderGuide): Promise<OrderGuide> {
  await db
    .transaction(async (trx) => {
      const g = await reachableGuide(trx, actor, guideId);
      await repo.touchGuide(trx, g.id, body.name);
      if (body.lines) await repo.replaceLines(trx, g.id, body.lines);
    })
    .catch(nameTaken);
  return getGuide(db, actor, guideId);
}

/** DELETE /order-guides/{guideId}: deletes the guide and its lines; 404 outside the caller's outlets. */
export async function deleteGuide(db: Db, actor: Actor, guideId: number): Promise<void> {
  const g = await reachableGuide(db, actor, guideId);
  if (!(await repo.deleteGuide(db, g.id))) throw notFound();
}

/**
 * POST /order-guides/{guideId}/to-cart: for each line, par − on hand (a code left out of `onHand`, or null, is 0)
 * rounded UP to the item's rule goes into the caller's current cart of the guide's outlet × store (created when
 * absent; a line already there keeps the larger quantity). Lines the store no longer carries, inactive items and
 * lines needing nothing are answered in `skipped`, never dropped silently. 404 when the caller may not shop
 * for the outlet at the guide's store.
 */
export async function guideToCart(db: Db, actor: Actor, guideId: number, body: GuideToCartBody): Promise<GuideToCartResult> {
  return db.transaction(async (trx) => {
    const g = await reachableGuide(trx, actor, guideId);
    if (!(await mayActAt(trx, actor, carts.SHOP_CODES, g.outletId, g.storeId))) throw new NotFoundError(ORDERING_MESSAGES.storeNotLinked);
    const onHand = new Map((body.onHand ?? []).map((o) => [o.itemCode, o.onHand ?? 0]));
    const lines = await repo.findLines(trx, g.id);
    const ref = await carts.findOrCreateActiveCart(trx, actor.userId, g.outletId, g.storeId);
    await carts.lockCart(trx, ref.id);
    const cart = await carts.findActiveCart(trx, actor.userId, ref.id);
    if (!cart) throw new NotFoundError(ORDERING_MESSAGES.storeNotLinked);
    const filled = await fillCart(
      trx,
      cart,
      lines.map((l) => ({ itemCode: l.itemCode, needed: l.parQuantity - (onHand.get(l.itemCode) ?? 0) })),
    );
    return { cartId: cart.id, ...filled, cart: await carts.cartView(trx, cart) };
  });
}
