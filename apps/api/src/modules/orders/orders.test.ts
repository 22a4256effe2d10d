import { createHash } from 'node:crypto';
import { orderDetailSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { GOOD_CARD, fillCart, postOrder, problem, startCheckout, storeItems, totalOf, type StoreItem } from './test-support';

/** POST /orders: pay in-store, card rules, decline, processing error, idempotency, concurrency. */
let t: TestContext;
let fx: Fixtures;
let buyer: string;
let items: StoreItem[];
const S = FIXTURE_STORES;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  buyer = tokenFor(t, fx.users.buyer);
  items = await storeItems(t.db, S.central, 3);
});
afterAll(async () => {
  await t.close();
});

const LINES = () => [
  { item: items[0], quantity: 2 },
  { item: items[1], quantity: 1 },
];
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A fresh buyer cart at 2190 and a checkout session for it. */
async function checkout(o: { fulfillment?: 'Pickup' | 'Delivery'; lines?: { item: StoreItem; quantity: number }[] } = {}) {
  const lines = o.lines ?? LINES();
  const cartId = await fillCart(t.db, {
    userId: fx.users.buyer.id,
    outletId: fx.outlets.dsm,
    storeId: S.central,
    lines,
    fulfillment: o.fulfillment,
  });
  const res = await startCheckout(t.app, buyer, cartId);
  expect(res.status).toBe(201);
  return { cartId, token: res.body.token as string, total: res.body.total as string, lines };
}
const ordersOf = async (token: string) => {
  const s = await t
    .db('checkout_sessions')
    .where({ token_hash: hashOf(token) })
    .first('id');
  return t.db('orders').where({ checkout_session_id: s!.id }).orderBy('id');
};
const cartLines = (cartId: number) => t.db('cart_items').where({ cart_id: cartId });
const sessionRow = (token: string) =>
  t
    .db('checkout_sessions')
    .where({ token_hash: hashOf(token) })
    .first();

describe('pay in-store', () => {
  it('when the buyer pays in-store for a Pickup cart, then the order is reserved, repriced, snapshotted, the cart emptied, the session used and the confirmation queued', async () => {
    const c = await checkout();
    await t.db('cart_items').where({ cart_id: c.cartId }).update({ unit_price: '0.01' }); // stale cart prices are ignored
    const mails = t.mail.length;
    const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' });
    expect(res.status).toBe(201);
    expect(orderDetailSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      status: 'reserved',
      paymentMethod: 'in_store',
      paymentStatus: 'not_required',
      storeId: S.central,
      outletId: fx.outlets.dsm,
      customerName: 'Blake Buyer',
      customerEmail: 'buyer@example.com',
      fulfillmentType: 'Pickup',
      deliveryCharge: '0.00',
      subtotal: c.total,
      total: c.total,
      itemCount: 2,
      unitCount: 3,
      delivery: null,
      payment: null,
      store: { id: S.central, name: 'CENTRAL CITY LIQUOR, INC.', phone: '(515) 555-0100' },
    });
    expect(res.body.orderNumber).toMatch(/^ORD-\d{13}-[0-9A-Z]+$/);
    expect(
      res.body.items.map((l: { itemCode: string; quantity: number; unitPrice: string }) => [l.itemCode, l.quantity, l.unitPrice]),
    ).toEqual([
      [items[0].code, 2, items[0].retail],
      [items[1].code, 1, items[1].retail],
    ]);
    const order = await t.db('orders').where({ id: res.body.id }).first();
    expect(order).toMatchObject({
      user_id: fx.users.buyer.id,
      status: 'reserved',
      payment_status: 'not_required',
      total_amount: c.total,
      subtotal: c.total,
      customer_name: 'Blake Buyer',
    });
    const lines = await t.db('order_items').where({ order_id: res.body.id }).orderBy('id');
    expect(lines.map((l) => [l.item_code, l.item_name, l.quantity, l.unit_price])).toEqual([
      [items[0].code, items[0].name, 2, items[0].retail],
      [items[1].code, items[1].name, 1, items[1].retail],
    ]);
    expect(await cartLines(c.cartId)).toHaveLength(0);
    expect((await t.db('carts').where({ id: c.cartId }).first())!.status).toBe('checked_out');
    expect((await sessionRow(c.token))!.consumed_at).not.toBeNull();
    expect(t.mail).toHaveLength(mails + 1);
    expect(t.mail.at(-1)).toMatchObject({ to: 'buyer@example.com', cc: ['orders-2190@example.com'], template: 'order_confirmation' });
    expect(t.mail.at(-1)!.text).toContain(res.body.orderNumber);
    expect(await t.db('payments').where({ order_id: res.body.id })).toHaveLength(0);
  });

  it('when the store has several cc addresses, then the confirmation copies each of them', async () => {
    await t.db('stores').where({ id: S.central }).update({ orderconf_ccemails: 'a@example.com; b@example.com ;' });
    try {
      const c = await checkout();
      expect((await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' })).status).toBe(201);
      expect(t.mail.at(-1)!.cc).toEqual(['a@example.com', 'b@example.com']);
    } finally {
      await t.db('stores').where({ id: S.central }).update({ orderconf_ccemails: 'orders-2190@example.com' });
    }
  });

  it("when the buyer has no profile name, then the customer name falls back to the email's local part", async () => {
    const p = await t.db('user_profiles').where({ user_id: fx.users.buyer.id }).first();
    await t.db('user_profiles').where({ user_id: fx.users.buyer.id }).update({ full_name: null, first_name: null, last_name: null });
    try {
      const c = await checkout();
      const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' });
      expect(res.body.customerName).toBe('buyer');
      await t.db('user_profiles').where({ user_id: fx.users.buyer.id }).update({ full_name: null, first_name: 'Blake', last_name: 'B.' });
      const c2 = await checkout();
      expect((await postOrder(t.app, buyer, { checkoutToken: c2.token, paymentMethod: 'in_store' })).body.customerName).toBe('Blake B.');
    } finally {
      await t
        .db('user_profiles')
        .where({ user_id: fx.users.buyer.id })
        .update({ full_name: p!.full_name, first_name: p!.first_name, last_name: p!.last_name });
    }
  });

  it('when the buyer pays in-store for a Delivery cart, then it answers 422 in_store_not_for_delivery and nothing changes', async () => {
    const c = await checkout({ fulfillment: 'Delivery' });
    const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' });
    expect(res.status).toBe(422);
    expect(problem(res)).toMatchObject({
      code: 'in_store_not_for_delivery',
      detail: 'Pay in-store is not available for Delivery orders. Please pay by card.',
    });
    expect(await ordersOf(c.token)).toHaveLength(0);
    expect(await cartLines(c.cartId)).toHaveLength(2);
    expect((await sessionRow(c.token))!.consumed_at).toBeNull();
  });

  it('when the same session is used again without a key, then it answers 409 checkout_session_used', async () => {
    const c = await checkout();
    expect((await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' })).status).toBe(201);
    const again = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' });
    expect(again.status).toBe(409);
    expect(problem(again).code).toBe('checkout_session_used');
    expect(await ordersOf(c.token)).toHaveLength(1);
  });
});

describe('card payment', () => {
  it('when the approving test card pays a Delivery cart, then the order is paid, one payment keeps brand and last 4 only, and the card is never echoed or stored', async () => {
    const c = await checkout({ fulfillment: 'Delivery' });
    const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      paymentMethod: 'card',
      paymentStatus: 'paid',
      status: 'reserved',
      fulfillmentType: 'Delivery',
      deliveryCharge: '15.00',
      total: totalOf(c.lines, '15.00'),
      subtotal: totalOf(c.lines),
      payment: { cardBrand: 'Visa', cardLast4: '1111' },
      delivery: {
        name: 'Demo – Court Avenue Taproom',
        address: '309 Court Ave',
        city: 'DES MOINES',
        state: 'IA',
        zipCode: '50309',
        phone: '(515) 555-0142',
      },
    });
    expect(res.text).not.toContain('4111111111111111');
    expect(res.text).not.toContain('4111 1111 1111 1111');
    const pays = await t.db('payments').where({ order_id: res.body.id });
    expect(pays).toHaveLength(1);
    expect(pays[0]).toMatchObject({
      gateway: 'test',
      status: 'approved',
      amount: totalOf(c.lines, '15.00'),
      currency: '840',
      card_brand: 'Visa',
      card_last4: '1111',
      result_code: 'AUTH',
    });
    for (const table of ['payments', 'orders', 'idempotency_keys', 'checkout_sessions']) {
      const dump = JSON.stringify(await t.db(table).select());
      expect(dump).not.toContain('4111111111111111');
    }
    expect(await cartLines(c.cartId)).toHaveLength(0);
    expect((await sessionRow(c.token))!.consumed_at).not.toBeNull();
    expect(t.mail.at(-1)).toMatchObject({ to: 'buyer@example.com', template: 'order_confirmation' });
    expect(t.mail.at(-1)!.text).toContain('Visa ending 1111');
  });

  it.each([
    ['an empty holder name', { cardName: '  ' }, 'card.cardName', 'Card holder name is required'],
    ['a holder name of 51 characters', { cardName: 'x'.repeat(51) }, 'card.cardName', 'Card holder name is required'],
    ['a 4-digit number', { cardNumber: '1234' }, 'card.cardNumber', 'Invalid card number'],
    ['a 12-digit number', { cardNumber: '4111 1111 1111' }, 'card.cardNumber', 'Invalid card number'],
    ['a 20-digit number', { cardNumber: '41111111111111111111' }, 'card.cardNumber', 'Invalid card number'],
    ['letters in the number', { cardNumber: '4111-1111-1111-1111' }, 'card.cardNumber', 'Invalid card number'],
    ['month 13', { expiration: '13/39' }, 'card.expiration', 'Invalid expiration date (use MM/YY format)'],
    ['month 00', { expiration: '00/39' }, 'card.expiration', 'Invalid expiration date (use MM/YY format)'],
    ['a one-digit month', { expiration: '1/39' }, 'card.expiration', 'Invalid expiration date (use MM/YY format)'],
    ['a past month', { expiration: '01/20' }, 'card.expiration', 'Invalid expiration date (use MM/YY format)'],
    ['a 4-digit year', { expiration: '12/2039' }, 'card.expiration', 'Invalid expiration date (use MM/YY format)'],
    ['a 3-digit ZIP', { zipCode: '123' }, 'card.zipCode', 'ZIP code must be 5 digits'],
    ['a ZIP+4', { zipCode: '50309-1234' }, 'card.zipCode', 'ZIP code must be 5 digits'],
    ['a 2-digit security code', { securityCode: '12' }, 'card.securityCode', 'Invalid security code'],
    ['a 5-digit security code', { securityCode: '12345' }, 'card.securityCode', 'Invalid security code'],
    ['letters in the security code', { securityCode: '12a' }, 'card.securityCode', 'Invalid security code'],
  ])('when the card has %s (%j), then it answers 400 on %s with "%s" and creates no order', async (_what, patch, path, message) => {
    const c = await checkout();
    const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: { ...GOOD_CARD, ...patch } });
    expect(res.status).toBe(400);
    expect(problem(res)).toMatchObject({ code: 'validation_failed', detail: message });
    expect(problem(res).errors).toEqual(expect.arrayContaining([{ path, message }]));
    // The card number never comes back (a random request id may hold '4111', so the whole number is looked for).
    expect(res.text.replace(/\s/g, '')).not.toContain('4111111111111111');
    expect(await ordersOf(c.token)).toHaveLength(0);
  });

  it('when a 4-digit security code and a 13-digit number are given, then they are accepted', async () => {
    const c = await checkout();
    const res = await postOrder(t.app, buyer, {
      checkoutToken: c.token,
      paymentMethod: 'card',
      card: { ...GOOD_CARD, cardNumber: '4222222222222', securityCode: '1234' },
    });
    expect(res.status).toBe(201);
    expect(res.body.payment).toEqual({ cardBrand: 'Visa', cardLast4: '2222' });
  });

  it('when the card method has no card, then it answers 400', async () => {
    const c = await checkout();
    const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card' });
    expect(res.status).toBe(400);
    expect(await ordersOf(c.token)).toHaveLength(0);
  });

  it("when the card is declined, then it answers 402 with the gateway's message, the order is failed, and the cart and session are kept so a retry succeeds", async () => {
    const c = await checkout();
    const mails = t.mail.length;
    const res = await postOrder(t.app, buyer, {
      checkoutToken: c.token,
      paymentMethod: 'card',
      card: { ...GOOD_CARD, cardNumber: '4000 0000 0000 0002' },
    });
    expect(res.status).toBe(402);
    expect(problem(res)).toMatchObject({
      status: 402,
      code: 'payment_declined',
      title: 'Payment Failed',
      detail: 'Your card was declined.',
    });
    const [failed] = await ordersOf(c.token);
    expect(failed).toMatchObject({ payment_status: 'failed', status: 'cancelled' });
    expect(await t.db('payments').where({ order_id: failed.id })).toEqual([
      expect.objectContaining({ status: 'declined', result_code: 'DENY', card_last4: '0002' }),
    ]);
    expect(await cartLines(c.cartId)).toHaveLength(2);
    expect((await t.db('carts').where({ id: c.cartId }).first())!.status).toBe('active');
    expect((await sessionRow(c.token))!.consumed_at).toBeNull();
    expect(t.mail).toHaveLength(mails);

    const retry = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(retry.status).toBe(201);
    expect(retry.body.paymentStatus).toBe('paid');
    expect((await ordersOf(c.token)).map((o) => o.payment_status)).toEqual(['failed', 'paid']);
    expect(await cartLines(c.cartId)).toHaveLength(0);
  });

  it('when the gateway has a processing error, then it answers 502 payment_error, the order is marked error and the cart kept', async () => {
    const c = await checkout();
    const res = await postOrder(t.app, buyer, {
      checkoutToken: c.token,
      paymentMethod: 'card',
      card: { ...GOOD_CARD, cardNumber: '4000 0000 0000 0119' },
    });
    expect(res.status).toBe(502);
    expect(problem(res)).toMatchObject({ code: 'payment_error' });
    const [o] = await ordersOf(c.token);
    expect(o).toMatchObject({ payment_status: 'error', status: 'cancelled' });
    expect(await t.db('payments').where({ order_id: o.id })).toEqual([
      expect.objectContaining({ status: 'error', result_code: 'GENERROR' }),
    ]);
    expect(await cartLines(c.cartId)).toHaveLength(2);
    // The outcome of that charge is for an operator to settle: the session takes no second order.
    const again = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(again.status).toBe(409);
    expect(await ordersOf(c.token)).toHaveLength(1);
  });

  it('when the approved charge cannot be finalised, then it answers 500 payment_unconfirmed, the order stays pending with its approved charge, and a retry with the key settles it once the cause is gone', async () => {
    const c = await checkout();
    await t.db.raw(
      `CREATE FUNCTION refuse_consume() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated failure'; END $$`,
    );
    await t.db.raw(`CREATE TRIGGER refuse_consume BEFORE UPDATE ON checkout_sessions FOR EACH ROW EXECUTE FUNCTION refuse_consume()`);
    let orderId = 0;
    try {
      const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD }, 'finalise-fails');
      expect(res.status).toBe(500);
      expect(problem(res)).toMatchObject({
        code: 'payment_unconfirmed',
        detail: 'Payment processed but order creation failing. Please contact support.',
      });
      const [o] = await ordersOf(c.token);
      orderId = o.id;
      expect(o).toMatchObject({ payment_status: 'pending', status: 'reserved' });
      expect(await t.db('payments').where({ order_id: o.id })).toEqual([
        expect.objectContaining({ status: 'pending', card_last4: '1111' }),
      ]);
      expect(await t.db('test_gateway_charges').where({ merchant_reference: o.order_number })).toEqual([
        expect.objectContaining({ status: 'approved' }),
      ]);
      const again = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD }, 'finalise-fails');
      expect(again.status).toBe(500);
    } finally {
      await t.db.raw('DROP TRIGGER refuse_consume ON checkout_sessions');
      await t.db.raw('DROP FUNCTION refuse_consume()');
    }
    const settled = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD }, 'finalise-fails');
    expect(settled.status).toBe(201);
    expect(settled.body).toMatchObject({ id: orderId, paymentStatus: 'paid' });
    expect(await t.db('payments').where({ order_id: orderId })).toEqual([expect.objectContaining({ status: 'approved' })]);
    expect(await cartLines(c.cartId)).toHaveLength(0);
    expect((await t.db('test_gateway_charges').whereLike('merchant_reference', settled.body.orderNumber)).length).toBe(1);
  });
});

describe('checkout session refusals', () => {
  it('when another buyer presents the token, then it answers 404 checkout_session_user_mismatch and creates nothing', async () => {
    const c = await checkout();
    const res = await postOrder(t.app, tokenFor(t, fx.users.otherBuyer), { checkoutToken: c.token, paymentMethod: 'in_store' });
    expect(res.status).toBe(404);
    expect(problem(res)).toMatchObject({ code: 'checkout_session_user_mismatch', detail: 'User mismatch in checkout session' });
    expect(await ordersOf(c.token)).toHaveLength(0);
  });

  it('when the viewer (no bcc.carts.checkout) posts an order, then it answers 403', async () => {
    const c = await checkout();
    const res = await postOrder(t.app, tokenFor(t, fx.users.viewer), { checkoutToken: c.token, paymentMethod: 'in_store' });
    expect(res.status).toBe(403);
    expect(problem(res).code).toBe('forbidden');
    expect(await ordersOf(c.token)).toHaveLength(0);
  });

  it('when the session has expired, then it answers 410 and creates nothing', async () => {
    const c = await checkout();
    await t
      .db('checkout_sessions')
      .where({ token_hash: hashOf(c.token) })
      .update({ expires_at: t.db.raw(`now() - interval '1 minute'`) });
    const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD });
    expect(res.status).toBe(410);
    expect(problem(res)).toMatchObject({ code: 'checkout_session_expired', detail: 'Checkout session expired' });
    expect(await ordersOf(c.token)).toHaveLength(0);
    expect(await cartLines(c.cartId)).toHaveLength(2);
  });

  it('when the token is unknown or malformed, then it answers 404 or 400', async () => {
    const unknown = await postOrder(t.app, buyer, { checkoutToken: 'b'.repeat(64), paymentMethod: 'in_store' });
    expect(unknown.status).toBe(404);
    expect(problem(unknown)).toMatchObject({ code: 'checkout_session_not_found', detail: 'No checkout session found' });
    const malformed = await postOrder(t.app, buyer, { checkoutToken: 'XYZ', paymentMethod: 'in_store' });
    expect(malformed.status).toBe(400);
    expect(problem(malformed).detail).toBe('Invalid checkout token');
  });

  it('when the cart changed after the session started, then it answers 409 checkout_cart_changed', async () => {
    const c = await checkout();
    await t.db('cart_items').where({ cart_id: c.cartId, item_code: items[0].code }).update({ quantity: 7 });
    const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' });
    expect(res.status).toBe(409);
    expect(problem(res).code).toBe('checkout_cart_changed');
    expect(await ordersOf(c.token)).toHaveLength(0);
  });

  it('when the buyer lost the outlet after the session started, then it answers 404 and creates nothing', async () => {
    const c = await checkout();
    const grants = await t
      .db('role_grants')
      .where({ user_id: fx.users.buyer.id, outlet_id: fx.outlets.dsm })
      .select('user_id', 'role_id', 'scope_type', 'outlet_id');
    await t.db('role_grants').where({ user_id: fx.users.buyer.id, outlet_id: fx.outlets.dsm }).del();
    try {
      const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' });
      expect(res.status).toBe(404);
      expect(problem(res).detail).toBe('Cart not found');
      expect(await ordersOf(c.token)).toHaveLength(0);
    } finally {
      await t.db('role_grants').insert(grants);
    }
  });

  it('when the cart was emptied after the session started, then it answers 400 cart_empty', async () => {
    const c = await checkout();
    await t.db('cart_items').where({ cart_id: c.cartId }).del();
    const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' });
    expect(res.status).toBe(400);
    expect(problem(res).code).toBe('cart_empty');
  });
});

describe('Idempotency-Key', () => {
  it('when an approved card order is retried with the same key, then the same 201 body comes back and there is one order and one payment', async () => {
    const c = await checkout();
    const key = `key-${Date.now()}`;
    const first = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD }, key);
    expect(first.status).toBe(201);
    const second = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD }, key);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const orders = await ordersOf(c.token);
    expect(orders).toHaveLength(1);
    expect(orders[0].idempotency_key).toBe(key);
    expect(await t.db('payments').where({ order_id: first.body.id })).toHaveLength(1);
  });

  it('when a declined payment is retried with the same key, then the same 402 comes back without a second charge', async () => {
    const c = await checkout();
    const body = { checkoutToken: c.token, paymentMethod: 'card', card: { ...GOOD_CARD, cardNumber: '4000000000000002' } };
    const first = await postOrder(t.app, buyer, body, 'decline-key');
    const second = await postOrder(t.app, buyer, body, 'decline-key');
    expect([first.status, second.status]).toEqual([402, 402]);
    const { requestId: _a, ...p1 } = problem(first);
    const { requestId: _b, ...p2 } = problem(second);
    expect(p2).toEqual(p1);
    const orders = await ordersOf(c.token);
    expect(orders).toHaveLength(1);
    expect(await t.db('payments').where({ order_id: orders[0].id })).toHaveLength(1);
  });

  it('when an in-store order is retried with the same key, then the first order comes back', async () => {
    const c = await checkout();
    const first = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' }, 'in-store-key');
    const second = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' }, 'in-store-key');
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
    expect(await ordersOf(c.token)).toHaveLength(1);
  });

  it('when the key is reused for another checkout, then it answers 422 idempotency_key_reused', async () => {
    const a = await checkout();
    expect((await postOrder(t.app, buyer, { checkoutToken: a.token, paymentMethod: 'in_store' }, 'reused-key')).status).toBe(201);
    const b = await checkout();
    const res = await postOrder(t.app, buyer, { checkoutToken: b.token, paymentMethod: 'in_store' }, 'reused-key');
    expect(res.status).toBe(422);
    expect(problem(res).code).toBe('idempotency_key_reused');
    expect(await ordersOf(b.token)).toHaveLength(0);
  });

  it('when a refused request is retried with the same key after the cause is fixed, then it runs again', async () => {
    const c = await checkout();
    const session = () => t.db('checkout_sessions').where({ token_hash: hashOf(c.token) });
    await session().update({ expires_at: t.db.raw(`now() - interval '1 minute'`) });
    const refused = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' }, 'fix-and-retry');
    expect(refused.status).toBe(410);
    await session().update({ expires_at: t.db.raw(`now() + interval '10 minutes'`) });
    const ok = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' }, 'fix-and-retry');
    expect(ok.status).toBe(201);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
    expect(await ordersOf(c.token)).toHaveLength(1);
  });

  it('when the key is not visible ASCII, then it answers 400', async () => {
    const c = await checkout();
    const res = await postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' }, 'x'.repeat(256));
    expect(res.status).toBe(400);
  });
});

describe('concurrency', () => {
  it('when 20 POST /orders race with one checkout token, then exactly one order exists and at most one charge was approved', async () => {
    const c = await checkout();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'card', card: GOOD_CARD })),
    );
    const codes = results.map((r) => r.status).sort();
    expect(codes.filter((s) => s === 201)).toHaveLength(1);
    expect(codes.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    const orders = await ordersOf(c.token);
    expect(orders).toHaveLength(1);
    expect(orders[0].payment_status).toBe('paid');
    const approved = await t
      .db('payments')
      .whereIn(
        'order_id',
        orders.map((o) => o.id),
      )
      .where({ status: 'approved' });
    expect(approved.length).toBeLessThanOrEqual(1);
    expect(await cartLines(c.cartId)).toHaveLength(0);
  });

  it('when 20 in-store POST /orders race with one token and one key, then one order is created and the others replay or wait', async () => {
    const c = await checkout();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => postOrder(t.app, buyer, { checkoutToken: c.token, paymentMethod: 'in_store' }, 'race-key')),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.status === 201 || (r.status === 409 && problem(r).code === 'idempotency_in_progress'))).toBe(true);
    expect(await ordersOf(c.token)).toHaveLength(1);
  });
});

describe('order mail', () => {
  it("when the confirmation cannot be queued, then the order still stands (the mail failure is logged, not the buyer's problem)", async () => {
    const broken = await createTestContext({
      mailer: {
        enqueue: async (db) => {
          await db.raw('SELECT 1/0');
        },
      },
    });
    try {
      const f = await seedFixtures(broken.db);
      const [item] = await storeItems(broken.db, S.central, 1);
      const token = tokenFor(broken, f.users.buyer);
      const cartId = await fillCart(broken.db, {
        userId: f.users.buyer.id,
        outletId: f.outlets.dsm,
        storeId: S.central,
        lines: [{ item, quantity: 1 }],
      });
      const session = await startCheckout(broken.app, token, cartId);
      const res = await postOrder(broken.app, token, { checkoutToken: session.body.token, paymentMethod: 'card', card: GOOD_CARD });
      expect(res.status).toBe(201);
      expect(await broken.db('orders').where({ id: res.body.id }).first()).toMatchObject({ payment_status: 'paid' });
      expect(await broken.db('cart_items').where({ cart_id: cartId })).toHaveLength(0);
    } finally {
      await broken.close();
    }
  });
});
