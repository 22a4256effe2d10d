import type { Order, OrderDetail, OrderList } from '@portal/contracts';
import { ApiError } from '@/lib/api';

/** An order as GET /orders lists it (test data). */
export function makeOrder(over: Partial<Order> = {}): Order {
  return {
    id: 101,
    orderNumber: 'ORD-20260105-0001',
    status: 'reserved',
    paymentMethod: 'card',
    paymentStatus: 'paid',
    orderDate: '2026-01-05T15:30:00.000Z',
    readyAt: null,
    storeId: 2190,
    storeName: 'Central City Liquor',
    outletId: 7,
    outletName: 'Demo – Court Avenue Taproom',
    customerName: 'Blake Buyer',
    customerEmail: 'buyer@example.com',
    customerPhone: '(515) 555-0100',
    fulfillmentType: 'Pickup',
    fulfillmentDate: null,
    deliveryCharge: '0.00',
    subtotal: '59.98',
    total: '59.98',
    notes: null,
    itemCount: 1,
    unitCount: 2,
    items: [
      {
        id: 1,
        itemCode: '43336',
        itemName: 'Captain Morgan Spiced Rum',
        bottleSizeId: 750,
        bottleSizeText: '750ML',
        quantity: 2,
        unitPrice: '29.99',
        totalPrice: '59.98',
      },
    ],
    ...over,
  };
}

/** The same order with the detail blocks of GET /orders/{id}. */
export function makeOrderDetail(over: Partial<OrderDetail> = {}): OrderDetail {
  return {
    ...makeOrder(over),
    store: {
      id: 2190,
      name: 'Central City Liquor',
      address: '1460 2nd Ave',
      city: 'Des Moines',
      state: 'IA',
      zipCode: '50314',
      phone: '(515) 555-0199',
    },
    delivery: null,
    payment: { cardBrand: 'Visa', cardLast4: '1111' },
    ...over,
  };
}

/** A GET /orders answer with counts computed from the orders. */
export function makeList(items: Order[], scope: OrderList['scope'] = 'store'): OrderList {
  const n = (s: string) => items.filter((o) => o.status === s).length;
  return {
    items,
    scope,
    counts: { reserved: n('reserved'), ready: n('ready'), completed: n('completed'), cancelled: n('cancelled'), all: items.length },
  };
}

/** An API refusal as lib/api would throw it. */
export function apiError(status: number, code: string, detail?: string): ApiError {
  return new ApiError(status, { type: 'about:blank', title: 'Error', status, code, detail });
}

/** Points window.matchMedia at a viewport width (desktop ≥ 768 px). */
export function setViewportWidth(width: number) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => {
      const min = /min-width:\s*(\d+)px/.exec(query);
      return {
        matches: min ? width >= Number(min[1]) : false,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      };
    },
  });
}
