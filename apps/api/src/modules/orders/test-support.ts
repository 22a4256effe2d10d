/**
 * Test helpers for the checkout and orders tests: carts are written straight into carts/cart_items (so
 * the tests do not depend on the carts routes), then checkout and orders go through HTTP.
 */
import request from 'supertest';
import type { Express } from 'express';
import type { Db } from '../../db/knex';
import { tokenFor, type TestContext } from '../../test/harness';
import type { Fixtures } from '../../test/fixtures';

export interface StoreItem {
  id: number;
  code: string;
  retail: string;
  name: string;
}

/** `n` active items of the store's inventory, by code. */
export async function storeItems(db: Db, storeId: number, n: number): Promise<StoreItem[]> {
  return db('inventory as inv')
    .join('items as i', 'i.id', 'inv.item_id')
    .where({ 'inv.store_id': storeId, 'i.active': true })
    .orderBy('i.code')
    .limit(n)
    .select('i.id', 'i.code', 'i.retail', 'i.name');
}

/**
 * The user's active cart for outlet × store holding exactly `lines` (created or emptied first), with the
 * given fulfillment (Delivery uses `deliveryCharge`). Returns the cart id.
 */
export async function fillCart(
  db: Db,
  o: {
    userId: string;
    outletId: number;
    storeId: number;
    lines: { item: StoreItem; quantity: number }[];
    fulfillment?: 'Pickup' | 'Delivery';
    deliveryCharge?: string;
  },
): Promise<number> {
  const type = o.fulfillment ?? 'Pickup';
  const cart =
    (await db('carts').where({ user_id: o.userId, outlet_id: o.outletId, store_id: o.storeId, status: 'active' }).first('id')) ??
    (await db('carts').insert({ user_id: o.userId, outlet_id: o.outletId, store_id: o.storeId }).returning('id'))[0];
  await db('cart_items').where({ cart_id: cart.id }).del();
  await db('carts')
    .where({ id: cart.id })
    .update({ fulfillment_flag: type, delivery_charge: type === 'Delivery' ? (o.deliveryCharge ?? '15.00') : 0 });
  if (o.lines.length) {
    await db('cart_items').insert(
      o.lines.map((l) => ({
        cart_id: cart.id,
        item_id: l.item.id,
        item_code: l.item.code,
        quantity: l.quantity,
        unit_price: l.item.retail,
      })),
    );
  }
  return cart.id;
}

/** Σ retail × quantity (+ charge) as a decimal string, computed in cents. */
export function totalOf(lines: { item: StoreItem; quantity: number }[], charge = '0.00'): string {
  const cents = (s: string) => Math.round(Number(s) * 100);
  const sum = lines.reduce((s, l) => s + cents(l.item.retail) * l.quantity, 0) + cents(charge);
  return `${Math.floor(sum / 100)}.${String(sum % 100).padStart(2, '0')}`;
}

/** POST /checkout-sessions as `token`; returns the response. */
export function startCheckout(app: Express, token: string, cartId: number) {
  return request(app).post('/api/v1/checkout-sessions').set('Authorization', `Bearer ${token}`).send({ cartId });
}

/** POST /orders as `token` with an optional Idempotency-Key. */
export function postOrder(app: Express, token: string, body: object, key?: string) {
  const req = request(app).post('/api/v1/orders').set('Authorization', `Bearer ${token}`);
  if (key) req.set('Idempotency-Key', key);
  return req.send(body);
}

/**
 * One in-store order placed through the API by the fixtures' buyer (outlet DSM) in `storeId`: `quantity`
 * (default 1) of `item` (default the store's first item). Expects 201 and returns the response.
 */
export async function placeInStoreOrder(t: TestContext, fx: Fixtures, storeId: number, line: { item?: StoreItem; quantity?: number } = {}) {
  const item = line.item ?? (await storeItems(t.db, storeId, 1))[0];
  const cartId = await fillCart(t.db, {
    userId: fx.users.buyer.id,
    outletId: fx.outlets.dsm,
    storeId,
    lines: [{ item, quantity: line.quantity ?? 1 }],
  });
  const token = tokenFor(t, fx.users.buyer);
  const s = await startCheckout(t.app, token, cartId);
  const o = await postOrder(t.app, token, { checkoutToken: s.body.token, paymentMethod: 'in_store' });
  expect(o.status).toBe(201);
  return o;
}

/** A card that passes every rule of spec 002 §5 and approves in test mode. */
export const GOOD_CARD = {
  cardName: 'Blake Buyer',
  cardNumber: '4111 1111 1111 1111',
  expiration: '12/39',
  securityCode: '123',
  zipCode: '50309',
};

/** The problem+json body of a response (the shared helper of test/http.ts). */
export { problem } from '../../test/http';
