import type { Order, OrderDetail } from '@portal/contracts';
import { ORDER_MESSAGES } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { NotFoundError } from '../../http/errors';
import { fromCents, toCents } from '../../lib/money';
import * as payments from '../payments/payments.service';
import * as repo from './orders.repository';

/**
 * The order with lines, store and delivery blocks, the card used (brand, last 4) and every charge and
 * refund (`payments`, oldest first): GET /orders/{id}'s answer. Throws 404 when absent.
 */
export async function loadDetail(db: Db, orderId: number): Promise<{ row: repo.OrderRow; detail: OrderDetail }> {
  const row = await repo.findById(db, orderId);
  if (!row) throw new NotFoundError(ORDER_MESSAGES.notFound);
  const [lines, moves] = await Promise.all([
    repo.findLines(db, [orderId]),
    row.paymentMethod === 'card' ? payments.paymentsOf(db, orderId) : [],
  ]);
  return { row, detail: detailOf(row, lines, moves) };
}

/** loadDetail's answer from rows already read (an order written with its lines, a new in-store order without payments). */
export function detailOf(
  row: repo.OrderRow,
  lines: repo.OrderLineRow[],
  moves: Awaited<ReturnType<typeof payments.paymentsOf>> = [],
): OrderDetail {
  const paid = moves.filter((p) => p.kind === 'charge' && p.status === 'approved').pop();
  const detail: OrderDetail = {
    ...toOrder(row, lines),
    store: {
      id: row.storeId,
      name: row.storeName,
      address: row.storeAddress,
      city: row.storeCity,
      state: row.storeState,
      zipCode: row.storeZip,
      phone: row.storePhone,
    },
    delivery:
      row.fulfillmentFlag === 'Delivery'
        ? {
            name: row.outletName,
            address: row.outletAddress,
            city: row.outletCity,
            state: row.outletState,
            zipCode: row.outletZip,
            phone: row.outletPhone,
          }
        : null,
    payment: paid ? { cardBrand: paid.cardBrand, cardLast4: paid.cardLast4 } : null,
    // Issue 28: only an emergency order carries these (other orders' answers and feed snapshots are unchanged).
    ...(row.emergency ? { emergency: true, emergencyFee: money(row.emergencyFee) } : {}),
    payments: moves.map((p) => ({
      kind: p.kind,
      amount: money(p.amount),
      status: p.status,
      reference: p.merchantReference,
      gatewayReference: p.gatewayReference,
      gateway: p.gateway,
      message: p.status === 'approved' || p.status === 'pending' ? null : p.verbiage || p.resultCode,
      attemptedAt: new Date(p.attemptedAt).toISOString(),
    })),
  };
  return detail;
}

const money = (v: string) => fromCents(toCents(v));

/** An order row and its lines as lists show it (contracts orderSchema). */
export function toOrder(r: repo.OrderRow, lines: repo.OrderLineRow[]): Order {
  return {
    id: r.id,
    orderNumber: r.orderNumber,
    status: r.status,
    paymentMethod: r.paymentMethod,
    paymentStatus: r.paymentStatus,
    orderDate: new Date(r.orderDate).toISOString(),
    readyAt: r.readyAt ? new Date(r.readyAt).toISOString() : null,
    cancelReason: r.cancelReason ?? null,
    refundedAmount: r.refundedAmount ? money(r.refundedAmount) : null,
    storeId: r.storeId,
    storeName: r.storeName,
    outletId: r.outletId,
    outletName: r.outletName,
    customerName: r.customerName,
    customerEmail: r.customerEmail,
    customerPhone: r.customerPhone,
    fulfillmentType: r.fulfillmentFlag,
    fulfillmentDate: r.deliveryDate,
    deliveryCharge: money(r.deliveryCharge),
    subtotal: money(r.subtotal),
    splitCaseFee: money(r.splitCaseFee ?? '0'),
    total: money(r.totalAmount),
    notes: r.notes,
    itemCount: lines.length,
    unitCount: lines.reduce((s, l) => s + l.quantity, 0),
    items: lines.map((l) => ({
      id: l.id,
      itemCode: l.itemCode,
      itemName: l.itemName,
      bottleSizeId: l.bottleSizeId,
      bottleSizeText: l.bottleSizeText,
      quantity: l.quantity,
      unitPrice: money(l.unitPrice),
      totalPrice: money(l.totalPrice),
    })),
  };
}
