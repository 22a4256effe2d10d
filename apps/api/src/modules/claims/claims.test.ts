import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { pdfText } from '../../test/pdf-text';
import { renderAttachments } from '../../lib/mail/render';
import { fillCart, postOrder, problem, startCheckout, storeItems, type StoreItem } from '../orders/test-support';

/**
 * Claims after delivery, invoices and statements (issue 28 §3, §4), mirroring ../shared/checks/ordering-week.mjs
 * part 2: an in-store order, its invoice PDF, completion, a claim (over-quantity refused), the buyer refused the
 * resolve, the store crediting it, and the month's statement with the credit. PDFs are read back with pdfjs-dist.
 */
const S = FIXTURE_STORES.central;
let t: TestContext;
let fx: Fixtures;
let items: StoreItem[];
beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  items = await storeItems(t.db, S, 2);
  await t.db('stores').where({ id: S }).update({ orderconf_ccemails: 'orders@store.example.com' });
});
afterAll(async () => {
  await t.close();
});
const as = (u: { id: string; email: string }) => tokenFor(t, u);
const post = (token: string, path: string, body: object = {}) =>
  request(t.app).post(`/api/v1${path}`).set('Authorization', `Bearer ${token}`).send(body);
const get = (token: string | null, path: string) => {
  const r = request(t.app)
    .get(`/api/v1${path}`)
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  return token ? r.set('Authorization', `Bearer ${token}`) : r;
};
/** With PDF_OUT=<dir>, the PDFs read back are also written there (to render with pdftoppm and look at). */
const keep = (name: string, pdf: Buffer) => {
  const dir = process.env.PDF_OUT;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), pdf);
};
const cents = (s: string) => Math.round(Number(s) * 100);
const usd = (c: number) => `$${(c / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

/** An in-store order of 6 × items[0] and 2 × items[1] by the buyer (outlet DSM). */
async function place(): Promise<{ id: number; orderNumber: string; total: string }> {
  await t.db('carts').where({ user_id: fx.users.buyer.id, status: 'active' }).update({ status: 'abandoned' });
  const cartId = await fillCart(t.db, {
    userId: fx.users.buyer.id,
    outletId: fx.outlets.dsm,
    storeId: S,
    lines: [
      { item: items[0], quantity: 6 },
      { item: items[1], quantity: 2 },
    ],
  });
  const s = await startCheckout(t.app, as(fx.users.buyer), cartId);
  expect(s.status).toBe(201);
  const o = await postOrder(t.app, as(fx.users.buyer), { checkoutToken: s.body.token, paymentMethod: 'in_store' });
  expect(o.status).toBe(201);
  return o.body;
}
const complete = async (orderId: number) => {
  expect((await post(as(fx.users.manager), `/orders/${orderId}/ready`)).status).toBe(200);
  expect((await post(as(fx.users.manager), `/orders/${orderId}/complete`)).status).toBe(200);
};
const events = (orderId: number) => t.db('order_events').where({ order_id: orderId }).orderBy('seq').pluck('type');

describe('invoices', () => {
  it("when the buyer or a super administrator reads an order's invoice, then it is a PDF with the order number, addresses, lines and totals; another outlet's buyer gets 404", async () => {
    const o = await place();
    const res = await get(as(fx.users.buyer), `/orders/${o.id}/invoice.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/pdf/);
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = pdfText(pdf);
    const store = await t.db('stores').where({ id: S }).first('name', 'city');
    expect(text).toContain(`Invoice ${o.orderNumber}`);
    expect(text).toContain(store!.name);
    expect(text).toContain(items[0].code);
    expect(text).toContain(usd(cents(o.total)));
    expect(text).toContain('Pay in-store');
    expect((await get(as(fx.users.admin), `/orders/${o.id}/invoice.pdf`)).status).toBe(200);
    expect((await get(as(fx.users.manager), `/orders/${o.id}/invoice.pdf`)).status).toBe(200);
    expect((await get(as(fx.users.otherBuyer), `/orders/${o.id}/invoice.pdf`)).status).toBe(404);
    expect((await get(null, `/orders/${o.id}/invoice.pdf`)).status).toBe(401);
  });

  it('when the order is confirmed, then its confirmation mail names the invoice and the mail job renders it as a PDF attachment', async () => {
    const o = await place();
    const mail = t.mail.find((m) => m.template === 'order_confirmation' && m.subject.includes(o.orderNumber));
    expect(mail?.attach).toEqual([{ kind: 'invoice', orderId: o.id }]);
    const [file] = await renderAttachments({ db: t.db, config: t.ctx.config }, mail!);
    expect(file).toMatchObject({ filename: `invoice-${o.orderNumber}.pdf`, contentType: 'application/pdf' });
    expect(pdfText(file.content).text).toContain(o.orderNumber);
  });
});

describe('claims', () => {
  it('when the order is not completed yet, then a claim answers 409 claim_order_not_completed', async () => {
    const o = await place();
    const res = await post(as(fx.users.buyer), `/orders/${o.id}/claims`, {
      lines: [{ itemCode: items[0].code, quantity: 1, reason: 'damaged' }],
    });
    expect(res.status).toBe(409);
    expect(problem(res).code).toBe('claim_order_not_completed');
  });

  it('when a claim asks for more bottles than ordered or a code not on the order, then 422 claim_quantity_exceeded; bad input 400', async () => {
    const o = await place();
    await complete(o.id);
    const over = await post(as(fx.users.buyer), `/orders/${o.id}/claims`, {
      lines: [{ itemCode: items[0].code, quantity: 999, reason: 'damaged' }],
    });
    expect(over.status).toBe(422);
    expect(problem(over)).toMatchObject({ code: 'claim_quantity_exceeded', claimable: 6 });
    const other = await post(as(fx.users.buyer), `/orders/${o.id}/claims`, {
      lines: [{ itemCode: 'NO-SUCH', quantity: 1, reason: 'short' }],
    });
    expect(problem(other).code).toBe('claim_quantity_exceeded');
    for (const bad of [
      { lines: [] },
      { lines: [{ itemCode: items[0].code, quantity: 0, reason: 'damaged' }] },
      { lines: [{ itemCode: items[0].code, quantity: 1, reason: 'lost' }] },
    ]) {
      expect((await post(as(fx.users.buyer), `/orders/${o.id}/claims`, bad)).status).toBe(400);
    }
    // Claimed bottles count: 4 then 3 more of 6 is over.
    expect(
      (await post(as(fx.users.buyer), `/orders/${o.id}/claims`, { lines: [{ itemCode: items[0].code, quantity: 4, reason: 'leaking' }] }))
        .status,
    ).toBe(201);
    const more = await post(as(fx.users.buyer), `/orders/${o.id}/claims`, {
      lines: [{ itemCode: items[0].code, quantity: 3, reason: 'leaking' }],
    });
    expect(problem(more)).toMatchObject({ code: 'claim_quantity_exceeded', claimable: 2 });
  });

  it('when the order was completed more than 48 hours ago, then 409 claim_window_closed', async () => {
    const o = await place();
    await complete(o.id);
    await t
      .db('orders')
      .where({ id: o.id })
      .update({ completed_at: t.db.raw(`now() - interval '48 hours 1 minute'`) });
    const res = await post(as(fx.users.buyer), `/orders/${o.id}/claims`, {
      lines: [{ itemCode: items[0].code, quantity: 1, reason: 'damaged' }],
    });
    expect(res.status).toBe(409);
    expect(problem(res).code).toBe('claim_window_closed');
  });

  it("when the buyer opens a claim and the store credits it, then each side is mailed, the feed has claim_opened and claim_resolved, the buyer cannot resolve, and the month's statement shows the credit", async () => {
    const hook = await post(as(fx.users.admin), '/admin/webhooks', {
      url: 'http://127.0.0.1:9/claims',
      storeId: S,
      events: ['order.claim_opened', 'order.claim_resolved'],
    });
    expect(hook.status).toBe(201);
    const o = await place();
    await complete(o.id);
    const mails = t.mail.length;
    const cl = await post(as(fx.users.buyer), `/orders/${o.id}/claims`, {
      lines: [{ itemCode: items[0].code, quantity: 2, reason: 'damaged' }],
      note: 'two broken in the case',
    });
    expect(cl.status).toBe(201);
    expect(cl.body).toMatchObject({
      claimId: expect.any(Number),
      status: 'open',
      orderNumber: o.orderNumber,
      lines: [{ itemCode: items[0].code, quantity: 2, reason: 'damaged', outcome: null }],
    });
    expect(t.mail.slice(mails).map((m) => [m.template, m.to])).toEqual([['order_claim_opened', 'orders@store.example.com']]);
    const claimId = cl.body.claimId as number;
    // Not the buyer (403: no bcc.orders.store.manage), not another store's manager (404), not a stranger (401).
    expect((await post(as(fx.users.buyer), `/claims/${claimId}/resolve`, { outcome: 'credit' })).status).toBe(403);
    expect((await post(as(fx.users.otherManager), `/claims/${claimId}/resolve`, { outcome: 'credit' })).status).toBe(404);
    expect((await request(t.app).post(`/api/v1/claims/${claimId}/resolve`).send({ outcome: 'credit' })).status).toBe(401);
    expect((await post(as(fx.users.manager), `/claims/${claimId}/resolve`, { outcome: 'refund' })).status).toBe(400);
    const rs = await post(as(fx.users.manager), `/claims/${claimId}/resolve`, { outcome: 'credit', note: 'credited' });
    expect(rs.status).toBe(200);
    const credit = cents(items[0].retail) * 2;
    expect(rs.body).toMatchObject({
      status: 'resolved',
      outcome: 'credit',
      resolutionNote: 'credited',
      creditAmount: (credit / 100).toFixed(2),
    });
    expect(t.mail.at(-1)).toMatchObject({ template: 'order_claim_resolved', to: 'buyer@example.com' });
    const again = await post(as(fx.users.manager), `/claims/${claimId}/resolve`, { outcome: 'rejected' });
    expect(problem(again).code).toBe('claim_resolved');
    expect(await events(o.id)).toEqual(['order.created', 'order.ready', 'order.completed', 'order.claim_opened', 'order.claim_resolved']);
    // A webhook subscribed to the claim events gets a delivery of each.
    const hooked = await t
      .db('webhook_deliveries as d')
      .join('order_events as e', 'e.seq', 'd.event_seq')
      .where({ 'd.endpoint_id': hook.body.id, 'e.order_id': o.id })
      .orderBy('e.seq')
      .pluck('e.type');
    expect(hooked).toEqual(['order.claim_opened', 'order.claim_resolved']);
    const audit = await t
      .db('audit_log')
      .where({ entity_type: 'order', entity_id: String(o.id) })
      .pluck('action');
    expect(audit).toEqual(expect.arrayContaining(['order.claim_opened', 'order.claim_resolved']));
    // The order's readers list its claims; another outlet's buyer does not reach them.
    const list = await request(t.app)
      .get(`/api/v1/orders/${o.id}/claims`)
      .set('Authorization', `Bearer ${as(fx.users.buyer)}`);
    expect(list.status).toBe(200);
    expect(list.body.items).toMatchObject([{ claimId, outcome: 'credit' }]);
    expect((await get(as(fx.users.otherBuyer), `/orders/${o.id}/claims`)).status).toBe(404);
    // The statement of the month lists the order and the credit, with totals.
    const month = (await t.db.raw(`SELECT to_char(now() AT TIME ZONE 'America/Chicago', 'YYYY-MM') AS m`)).rows[0].m as string;
    const st = await get(as(fx.users.buyer), `/outlets/${fx.outlets.dsm}/statements/${month}.pdf`);
    expect(st.status).toBe(200);
    expect(st.headers['content-type']).toMatch(/application\/pdf/);
    keep('statement.pdf', st.body as Buffer);
    const { text } = pdfText(st.body as Buffer);
    expect(text).toContain(`Statement ${month}`);
    expect(text).toContain(o.orderNumber);
    expect(text).toContain(`claim #${claimId}`);
    expect(text).toContain('Claim credits total');
    expect(text).toContain(usd(-credit).replace('$-', '-$'));
    // The invoice shows the credit and the balance.
    const invoice = (await get(as(fx.users.buyer), `/orders/${o.id}/invoice.pdf`)).body as Buffer;
    keep('invoice.pdf', invoice);
    const inv = pdfText(invoice).text;
    expect(inv).toContain('Claim credits');
    expect(inv).toContain(usd(cents(o.total) - credit));
  });

  it("when another outlet's buyer asks for the statement, then 404; a bad month 400; a viewer (no checkout) 403", async () => {
    expect((await get(as(fx.users.otherBuyer), `/outlets/${fx.outlets.dsm}/statements/2026-12.pdf`)).status).toBe(404);
    expect((await get(as(fx.users.buyer), `/outlets/${fx.outlets.dsm}/statements/2026-13.pdf`)).status).toBe(400);
    expect((await get(as(fx.users.viewer), `/outlets/${fx.outlets.dsm}/statements/2026-12.pdf`)).status).toBe(403);
  });
});
