import type { Order } from '@portal/contracts';
import { formatDate } from '@/lib/format';

/** "Pickup" / "Delivery" with its date, or 'None chosen' for the date (spec 001 §2). */
export function fulfillmentDateText(order: Pick<Order, 'fulfillmentDate'>): string {
  return order.fulfillmentDate ? formatDate(order.fulfillmentDate) : 'None chosen';
}

/** "3 items" / "1 item". */
export function itemsText(n: number): string {
  return `${n} ${n === 1 ? 'item' : 'items'}`;
}

/** "Des Moines, IA 50309" from the parts that exist. */
export function cityLine(p: { city: string | null; state: string | null; zipCode: string | null }): string {
  const cityState = [p.city, p.state].filter(Boolean).join(', ');
  return [cityState, p.zipCode].filter(Boolean).join(' ');
}

/** Case-insensitive match on order number, customer name or email (spec 001 §2 Store Orders search). */
export function matchesSearch(order: Pick<Order, 'orderNumber' | 'customerName' | 'customerEmail'>, search: string): boolean {
  const s = search.trim().toLowerCase();
  if (!s) return true;
  return [order.orderNumber, order.customerName, order.customerEmail].some((v) => v.toLowerCase().includes(s));
}
