import { randomBytes } from 'node:crypto';
import { PROBLEM_CODES, type OrderDetail } from '@portal/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import type { ApiKeyPrincipal } from '../access/api-keys';
import { keyReaches } from '../access/access.service';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../http/errors';
import { fromCents, toCents } from '../../lib/money';
import { recordAudit } from '../audit/audit.service';
import { appendTestOrderEvent } from '../orders/orders.service';
import * as repo from './integrations.repository';

/**
 * POST /integrations/test-events (issue 24 §7): a synthetic `order.created` for one store of the key, so an
 * integrator can try their feed reader and webhook receiver without a buyer placing an order. It goes on the
 * feed and to the store's webhooks like a real event, marked `"test": true`, and no order exists behind it
 * (`order.id` 0, `orderNumber` TEST-…). Allowed in test and development, and elsewhere only for a key made
 * with `sandbox: true` (else 403 test_events_unavailable). A store key uses its own store; a board key names
 * one of its board's stores (`storeId`; 400 validation_failed without, 404 outside the board). Audited.
 */
export async function emitTestEvent(
  db: Db,
  config: Pick<Config, 'env'>,
  key: ApiKeyPrincipal,
  input: { storeId?: number },
  ip: string | null,
): Promise<{ seq: number; type: 'order.created'; test: true; order: OrderDetail }> {
  if (config.env === 'production' && !key.sandbox)
    throw new ForbiddenError(
      'Test events are available in test and development, or to an API key made with sandbox: true.',
      PROBLEM_CODES.testEventsUnavailable,
    );
  const storeId = input.storeId ?? key.storeId;
  if (!storeId) throw new BadRequestError('Name the store (storeId) of the board', [{ path: 'storeId', message: 'Choose a store' }]);
  const store = await repo.findTestEventStore(db, storeId);
  if (!store || !keyReaches(key, { id: store.id, boardId: store.board_id })) throw new NotFoundError('Store not found');
  const lines = await repo.sampleLines(db, store.id, store.board_id);
  const order = syntheticOrder(store, lines);
  return db.transaction(async (trx) => {
    await recordAudit(
      trx,
      { apiKeyId: key.apiKeyId },
      { action: 'integrations.test_event', entityType: 'store', entityId: store.id, ip, details: { orderNumber: order.orderNumber } },
    );
    // Last: the event's lock is held until commit.
    const seq = await appendTestOrderEvent(trx, store.id, order);
    return { seq, type: 'order.created' as const, test: true as const, order };
  });
}

/** An order snapshot shaped like a real one (contracts orderDetailSchema): pay in store, pickup, one of each line. */
function syntheticOrder(s: repo.TestEventStore, lines: repo.SampleLine[]): OrderDetail {
  const items = lines.map((l) => ({
    id: 0,
    itemCode: l.code,
    itemName: l.name,
    bottleSizeId: l.bottle_size_id,
    bottleSizeText: l.bottle_size,
    quantity: 1,
    unitPrice: fromCents(toCents(l.retail)),
    totalPrice: fromCents(toCents(l.retail)),
  }));
  const total = fromCents(items.reduce((sum, l) => sum + toCents(l.totalPrice), 0));
  return {
    id: 0,
    orderNumber: `TEST-${randomBytes(4).toString('hex').toUpperCase()}`,
    status: 'reserved',
    paymentMethod: 'in_store',
    paymentStatus: 'not_required',
    orderDate: new Date().toISOString(),
    readyAt: null,
    cancelReason: null,
    storeId: s.id,
    storeName: s.name,
    outletId: 0,
    outletName: 'Test outlet',
    customerName: 'Test Customer',
    customerEmail: 'test-customer@example.invalid',
    customerPhone: null,
    fulfillmentType: 'Pickup',
    fulfillmentDate: null,
    deliveryCharge: '0.00',
    subtotal: total,
    total,
    notes: 'Synthetic test event (POST /integrations/test-events): no such order exists.',
    itemCount: items.length,
    unitCount: items.length,
    items,
    store: { id: s.id, name: s.name, address: s.address, city: s.city, state: s.state, zipCode: s.zip_code, phone: s.phone },
    delivery: null,
    payment: null,
  };
}
