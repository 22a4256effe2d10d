import type { Order } from '@portal/contracts';
import { formatDateTime } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { fulfillmentDateText } from '../lib/order-text';
import { OrderLinesTable, OrderTotals } from './order-lines-table';
import { OrderStatusBadge } from './order-status-badge';
import { RefundNote } from './refund-note';
import { InvoiceButton } from './invoice-button';
import { ClaimsSection } from './claims/claims-section';

/**
 * Store Orders details dialog (spec 001 §2): ordered date, fulfillment flag and date, customer name, email
 * and phone, items (name or code, code, size, quantity, unit price, line total), subtotal (total − delivery),
 * delivery charge, total, notes; Mark Ready and Close.
 */
export function StoreOrderDetailsDialog({
  order,
  canMarkReady,
  marking,
  onMarkReady,
  onClose,
}: {
  order: Order | null;
  canMarkReady: boolean;
  marking: boolean;
  onMarkReady: (o: Order) => void;
  onClose: () => void;
}) {
  const subtotal = order ? (Number(order.total) - Number(order.deliveryCharge)).toFixed(2) : '0.00';
  return (
    <Dialog
      open={order !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={
        order ? (
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span>
              Order <span className="whitespace-nowrap">{order.orderNumber}</span>
            </span>{' '}
            <OrderStatusBadge status={order.status} paymentStatus={order.paymentStatus} />
          </span>
        ) : (
          'Order'
        )
      }
      className="max-w-2xl"
      footer={
        order && (
          <>
            <Button variant="outline" onClick={onClose}>
              Close
            </Button>
            <InvoiceButton order={order} />
            {canMarkReady && order.status === 'reserved' && (
              <Button onClick={() => onMarkReady(order)} loading={marking}>
                Mark Ready
              </Button>
            )}
          </>
        )
      }
    >
      {order && (
        <div className="space-y-5 text-sm">
          <CustomerFacts order={order} />
          <OrderLinesTable items={order.items} variant="store" />
          <OrderTotals subtotal={subtotal} deliveryCharge={order.deliveryCharge} total={order.total} totalLabel="Total" />
          <RefundNote order={order} className="flex justify-end" />
          <section>
            <h3 className="text-stone-500">Notes</h3>
            <p className="whitespace-pre-line text-stone-900">{order.notes?.trim() || <span className="text-stone-500">No notes</span>}</p>
          </section>
          <ClaimsSection order={order} canReport={false} canResolve={canMarkReady} />
        </div>
      )}
    </Dialog>
  );
}

/** Ordered, fulfillment, customer, outlet, and the customer's email and phone as mailto: / tel: links. */
function CustomerFacts({ order }: { order: Order }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
      <div>
        <dt className="text-stone-500">Ordered</dt>
        <dd className="font-medium text-stone-900">{formatDateTime(order.orderDate)}</dd>
      </div>
      <div>
        <dt className="text-stone-500">Fulfillment</dt>
        <dd className="font-medium text-stone-900">
          {order.fulfillmentType} · {fulfillmentDateText(order)}
        </dd>
      </div>
      <div>
        <dt className="text-stone-500">Customer</dt>
        <dd className="font-medium text-stone-900">{order.customerName}</dd>
      </div>
      <div>
        <dt className="text-stone-500">Outlet</dt>
        <dd className="font-medium text-stone-900">{order.outletName}</dd>
      </div>
      <div>
        <dt className="text-stone-500">Email</dt>
        <dd>
          <a className="break-all text-brand-700 hover:underline" href={`mailto:${order.customerEmail}`}>
            {order.customerEmail}
          </a>
        </dd>
      </div>
      <div>
        <dt className="text-stone-500">Phone</dt>
        <dd>
          {order.customerPhone ? (
            <a className="text-brand-700 hover:underline" href={`tel:${order.customerPhone.replace(/[^\d+]/g, '')}`}>
              {order.customerPhone}
            </a>
          ) : (
            <span className="text-stone-500">Not provided</span>
          )}
        </dd>
      </div>
    </dl>
  );
}
