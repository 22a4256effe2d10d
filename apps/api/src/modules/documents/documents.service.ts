import { statementMonthSchema } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { BadRequestError, NotFoundError } from '../../http/errors';
import { fromCents, toCents } from '../../lib/money';
import { registerMailAttachment } from '../../lib/mail/render';
import { creditsOf } from '../claims/claims.service';
import { localDate, monthBounds } from '../schedules/schedules.service';
import * as repo from './documents.repository';
import { PdfWriter, addressLines, usd, type Column } from './pdf-layout';

/**
 * Invoices and monthly statements as PDF (issue 28 §3, ARCHITECTURE §5 "The licensee's ordering week"). The
 * routes check who may read (the order's readers; the outlet's buyers and managers); these functions render.
 * The invoice is also the order confirmation mail's attachment, rendered by the mail job (never in the order's
 * transaction): registered here as the attachment kind `invoice`.
 */

const sum = (xs: string[]) => xs.reduce((s, x) => s + toCents(x), 0);

/** Bottles as "2 cs + 3 btl" when the case size is known (else "15 btl"). */
export function caseText(quantity: number, bottlesPerCase: number | null): string {
  if (!bottlesPerCase || bottlesPerCase <= 1) return `${quantity} btl`;
  const cases = Math.floor(quantity / bottlesPerCase);
  const bottles = quantity % bottlesPerCase;
  return [cases ? `${cases} cs` : '', bottles ? `${bottles} btl` : ''].filter(Boolean).join(' + ');
}

const LINE_COLUMNS: Column[] = [
  { title: 'Code', width: 60 },
  { title: 'Item', width: 150 },
  { title: 'Size', width: 55 },
  { title: 'Bottles', width: 45, align: 'right' },
  { title: 'Cases / bottles', width: 80 },
  { title: 'Price', width: 60, align: 'right' },
  { title: 'Amount', width: 62, align: 'right' },
];

/** The file name of an order's invoice. */
export const invoiceFileName = (orderNumber: string) => `invoice-${orderNumber}.pdf`;

/**
 * GET /orders/{orderId}/invoice.pdf: order number, dates, store and outlet addresses, lines (code, name, size,
 * bottles, cases/bottles, price, amount), subtotal, delivery charge, emergency fee, total, payment, refunds and
 * claim credits. 404 when the order does not exist.
 */
export async function invoicePdf(db: Db, orderId: number): Promise<{ fileName: string; pdf: Buffer }> {
  const o = await repo.findOrder(db, orderId);
  if (!o) throw new NotFoundError('Order not found');
  const [store, outlet, lines, payments, credits] = await Promise.all([
    repo.findStore(db, o.storeId),
    repo.findOutlet(db, o.outletId),
    repo.findLines(db, orderId),
    repo.findPayments(db, orderId),
    repo.findOrderCredits(db, orderId),
  ]);
  const w = new PdfWriter(`Invoice ${o.orderNumber}`);
  w.heading(`Invoice ${o.orderNumber}`, `Order date ${localDate(new Date(o.orderDate))} · status ${o.status}`);
  w.addresses([
    { label: 'Store', lines: store ? addressLines(store) : ['—'] },
    { label: 'Outlet', lines: outlet ? addressLines(outlet) : ['—'] },
  ]);
  const charge = payments.find((p) => p.kind === 'charge' && p.status === 'approved');
  const paymentText =
    o.paymentMethod === 'in_store'
      ? 'Pay in-store (due on pickup or delivery)'
      : `Card${charge?.cardBrand ? ` ${charge.cardBrand} ending ${charge.cardLast4}` : ''} (${o.paymentStatus})`;
  w.facts([
    ['Customer', `${o.customerName}${o.customerEmail ? ` <${o.customerEmail}>` : ''}`],
    [
      'Fulfillment',
      `${o.fulfillmentFlag}${o.deliveryDate ? `, delivery ${o.deliveryDate}` : ''}${o.emergency ? ' (emergency order)' : ''}`,
    ],
    ['Payment', paymentText],
  ]);
  w.section('Lines');
  w.table(
    LINE_COLUMNS,
    lines.map((l) => [
      l.itemCode,
      l.itemName,
      l.bottleSize ?? '',
      String(l.quantity),
      caseText(l.quantity, l.bottlesPerCase),
      usd(l.unitPrice),
      usd(l.totalPrice),
    ]),
  );
  const refunds = payments.filter((p) => p.kind === 'refund' && p.status === 'approved');
  const refunded = sum(refunds.map((r) => r.amount));
  const credited = sum(credits.map((c) => c.creditAmount));
  const rows: [string, string][] = [
    ['Subtotal', usd(o.subtotal)],
    ['Delivery charge', usd(o.deliveryCharge)],
    ...(toCents(o.emergencyFee) ? [['Emergency order fee', usd(o.emergencyFee)] as [string, string]] : []),
    ['Total', usd(o.totalAmount)],
    ...(refunded ? [['Refunded', usd(fromCents(-refunded))] as [string, string]] : []),
    ...(credited ? [['Claim credits', usd(fromCents(-credited))] as [string, string]] : []),
    ...(refunded || credited ? [['Balance', usd(fromCents(toCents(o.totalAmount) - refunded - credited))] as [string, string]] : []),
  ];
  w.totals(rows);
  if (refunds.length || credits.length) {
    w.section('Refunds and credits');
    w.table(
      [
        { title: 'Date', width: 100 },
        { title: 'What', width: 312 },
        { title: 'Amount', width: 100, align: 'right' },
      ],
      [
        ...refunds.map((r) => [localDate(new Date(r.createdAt)), 'Card refund', usd(r.amount)]),
        ...credits.map((c) => [c.resolvedAt ? localDate(new Date(c.resolvedAt)) : '', `Claim #${c.claimId} credit`, usd(c.creditAmount)]),
      ],
    );
  }
  w.note('Payment is due on delivery or pickup. Report damaged, leaking, wrong or short items within 48 hours of delivery.');
  return { fileName: invoiceFileName(o.orderNumber), pdf: await w.done() };
}

/**
 * GET /outlets/{outletId}/statements/{yyyy-mm}.pdf: every order of the outlet dated in the month (store time),
 * every refund and claim credit made in it, with totals and the net. 400 for a month not 'YYYY-MM'; 404 when
 * the outlet does not exist.
 */
export async function statementPdf(db: Db, outletId: number, month: string): Promise<{ fileName: string; pdf: Buffer }> {
  const parsed = statementMonthSchema.safeParse(month);
  if (!parsed.success)
    throw new BadRequestError('Use the month format YYYY-MM', [{ path: 'month', message: 'Use the month format YYYY-MM' }]);
  const outlet = await repo.findOutlet(db, outletId);
  if (!outlet) throw new NotFoundError('Outlet not found');
  const { from, to } = monthBounds(month);
  const [orders, refunds, credits] = await Promise.all([
    repo.findMonthOrders(db, outletId, from, to),
    repo.findMonthRefunds(db, outletId, from, to),
    creditsOf(db, outletId, from, to),
  ]);
  const w = new PdfWriter(`Statement ${month} ${outlet.name}`);
  w.heading(`Statement ${month}`, `${outlet.name} · ${orders.length} orders`);
  w.addresses([{ label: 'Outlet', lines: addressLines(outlet) }]);
  w.section('Orders');
  w.table(
    [
      { title: 'Date', width: 60 },
      { title: 'Order', width: 165 },
      { title: 'Store', width: 110 },
      { title: 'Fulfillment', width: 55 },
      { title: 'Status', width: 55 },
      { title: 'Amount', width: 67, align: 'right' },
    ],
    orders.map((o) => [localDate(new Date(o.orderDate)), o.orderNumber, o.storeName, o.fulfillmentFlag, o.status, usd(o.totalAmount)]),
    'No orders this month.',
  );
  w.section('Refunds');
  w.table(
    [
      { title: 'Date', width: 100 },
      { title: 'Order', width: 312 },
      { title: 'Amount', width: 100, align: 'right' },
    ],
    refunds.map((r) => [localDate(new Date(r.at)), r.orderNumber, usd(r.amount)]),
    'No refunds this month.',
  );
  w.section('Claim credits');
  w.table(
    [
      { title: 'Date', width: 100 },
      { title: 'Order / claim', width: 312 },
      { title: 'Amount', width: 100, align: 'right' },
    ],
    credits.map((c) => [localDate(new Date(c.resolvedAt)), `${c.orderNumber} claim #${c.claimId}`, usd(c.creditAmount)]),
    'No claim credits this month.',
  );
  // Cancelled orders are listed but not owed.
  const ordersTotal = sum(orders.filter((o) => o.status !== 'cancelled' && o.status !== 'cancel_pending').map((o) => o.totalAmount));
  const refundTotal = sum(refunds.map((r) => r.amount));
  const creditTotal = sum(credits.map((c) => c.creditAmount));
  w.totals([
    ['Orders total', usd(fromCents(ordersTotal))],
    ['Claim credits total', usd(fromCents(-creditTotal))],
    ['Net for the month', usd(fromCents(ordersTotal - creditTotal))],
  ]);
  w.note(
    `Orders total excludes cancelled orders. Refunds total ${usd(fromCents(refundTotal))}: card payments of cancelled orders returned (not in the net). Claim credits are settled by the store.`,
  );
  return { fileName: `statement-${month}-outlet-${outletId}.pdf`, pdf: await w.done() };
}

// The confirmation mail names its invoice ({ kind: 'invoice', orderId }); the mail job renders it when it sends.
registerMailAttachment('invoice', async (deps, ref) => {
  const orderId = Number(ref.orderId);
  const { fileName, pdf } = await invoicePdf(deps.db, orderId);
  return { filename: fileName, contentType: 'application/pdf', content: pdf };
});
