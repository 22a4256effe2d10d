import type { OrderDetail } from '@portal/contracts';
import type { MailMessage } from '../../context';

/** The store's orderconf_ccemails ("a@x.com; b@y.com") as a list; empty when unset. */
export function splitCcEmails(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

const usd = (amount: string) => `$${amount.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The order confirmation (ARCHITECTURE §7 template order_confirmation): to the customer, cc the store's
 * orderconf_ccemails. Lists lines, subtotal, delivery charge, total, fulfillment, store and payment.
 * Never contains card data beyond brand and last 4 digits.
 */
export function orderConfirmationMail(order: OrderDetail, ccEmails: string | null): MailMessage {
  const when = order.fulfillmentDate ?? 'None chosen';
  const payment =
    order.paymentMethod === 'in_store'
      ? 'Pay in-store'
      : `Card${order.payment?.cardBrand ? ` (${order.payment.cardBrand} ending ${order.payment.cardLast4})` : ''}`;
  const storeLine = [order.store.name, order.store.address, order.store.city, order.store.state, order.store.zipCode]
    .filter(Boolean)
    .join(', ');
  const lines = order.items.map(
    (l) =>
      `  ${l.quantity} × ${l.itemName} (${l.itemCode}${l.bottleSizeText ? `, ${l.bottleSizeText}` : ''}) @ ${usd(l.unitPrice)} = ${usd(l.totalPrice)}`,
  );
  const text = [
    `Hello ${order.customerName},`,
    '',
    `Order ${order.orderNumber} has been placed successfully.`,
    '',
    `Store: ${storeLine}${order.store.phone ? ` (${order.store.phone})` : ''}`,
    `Outlet: ${order.outletName}`,
    `Fulfillment: ${order.fulfillmentType}, date: ${when}`,
    `Payment: ${payment}`,
    '',
    'Items:',
    ...lines,
    '',
    `Subtotal: ${usd(order.subtotal)}`,
    ...(Number(order.deliveryCharge) > 0 ? [`Delivery: ${usd(order.deliveryCharge)}`] : []),
    `Total: ${usd(order.total)}`,
    '',
    'Thank you for your order.',
  ].join('\n');
  const rows = order.items
    .map(
      (l) =>
        `<tr><td>${esc(l.itemName)}</td><td>${esc(l.itemCode)}</td><td>${l.quantity}</td><td>${usd(l.unitPrice)}</td><td>${usd(l.totalPrice)}</td></tr>`,
    )
    .join('');
  const html =
    `<p>Hello ${esc(order.customerName)},</p><p>Order <strong>${esc(order.orderNumber)}</strong> has been placed successfully.</p>` +
    `<p>Store: ${esc(storeLine)}<br>Outlet: ${esc(order.outletName)}<br>Fulfillment: ${esc(order.fulfillmentType)}, date: ${esc(when)}<br>Payment: ${esc(payment)}</p>` +
    `<table><thead><tr><th>Product</th><th>Code</th><th>Qty</th><th>Price</th><th>Total</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<p>Subtotal: ${usd(order.subtotal)}${Number(order.deliveryCharge) > 0 ? `<br>Delivery: ${usd(order.deliveryCharge)}` : ''}<br><strong>Total: ${usd(order.total)}</strong></p>`;
  const cc = splitCcEmails(ccEmails);
  return {
    to: order.customerEmail,
    ...(cc.length ? { cc } : {}),
    subject: `Order ${order.orderNumber} confirmation`,
    text,
    html,
    template: 'order_confirmation',
  };
}

const STATUS_TEXT = {
  ready: (n: string) => `Order ${n} is ready.`,
  completed: (n: string) => `Order ${n} is completed. Thank you.`,
  cancelled: (n: string) => `Order ${n} has been cancelled by the store.`,
} as const;

/**
 * The buyer's notice of a status change: ready, completed or cancelled (with the store's
 * reason, and for card orders that the payment was refunded). Template `order_status_<status>`.
 */
export function orderStatusMail(order: OrderDetail, status: keyof typeof STATUS_TEXT, reason?: string | null): MailMessage {
  const head = STATUS_TEXT[status](order.orderNumber);
  const lines = [
    `Hello ${order.customerName},`,
    '',
    head,
    ...(reason ? ['', `Reason: ${reason}`] : []),
    ...(status === 'cancelled' && order.paymentMethod === 'card'
      ? ['', `Your card payment of ${usd(order.total)} has been refunded.`]
      : []),
    '',
    `Store: ${order.store.name}${order.store.phone ? ` (${order.store.phone})` : ''}`,
  ];
  return {
    to: order.customerEmail,
    subject: head,
    text: lines.join('\n'),
    html: lines
      .filter(Boolean)
      .map((l) => `<p>${esc(l)}</p>`)
      .join(''),
    template: `order_status_${status}`,
  };
}
