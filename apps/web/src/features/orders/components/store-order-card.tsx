import { CalendarDays, Truck, User, Building2 } from 'lucide-react';
import type { Order } from '@portal/contracts';
import { formatMoney, formatShortDateTime } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { fulfillmentDateText, itemsText } from '../lib/order-text';
import { OrderStatusBadge } from './order-status-badge';
import { RefundNote } from './refund-note';

const SHOWN_LINES = 3;

/**
 * One order on Store Orders (spec 001 §2): number, status, date (MMM d, h:mm a), total, customer, outlet,
 * item lines, delivery charge when above 0, fulfillment date or 'None chosen'; Mark Ready (reserved
 * orders, store-manage permission) and View Details. Fits 390 px with the whole order number (issue 9 §2).
 */
export function StoreOrderCard({
  order,
  canMarkReady,
  marking,
  onMarkReady,
  onView,
  onComplete,
  onCancel,
}: {
  order: Order;
  canMarkReady: boolean;
  marking: boolean;
  onMarkReady: () => void;
  onView: () => void;
  /** Mark Completed (ready orders) and Cancel (reserved / ready / cancel_pending), issue 14 §1; hidden when absent. */
  onComplete?: () => void;
  onCancel?: () => void;
}) {
  return (
    <Card className="flex h-full flex-col">
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1 p-4 pb-3">
        <div className="min-w-0">
          <h3 className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold text-stone-900">
            <span data-testid="order-number" className="[overflow-wrap:anywhere]">
              {order.orderNumber}
            </span>
            <OrderStatusBadge status={order.status} paymentStatus={order.paymentStatus} />
          </h3>
          <p className="text-sm text-stone-500">{formatShortDateTime(order.orderDate)}</p>
        </div>
        <span className="ml-auto flex flex-col items-end">
          <span className="text-lg font-semibold tabular-nums text-stone-900">{formatMoney(order.total)}</span>
          <RefundNote order={order} />
        </span>
      </div>
      <div className="flex-1 space-y-3 px-4 pb-4 text-sm">
        {order.cancelReason && (
          <p className="text-stone-600">
            <span className="font-medium">Cancel reason:</span> {order.cancelReason}
          </p>
        )}
        <OrderFacts order={order} />
        <LinesPreview order={order} />
      </div>
      <div className="flex flex-wrap justify-end gap-2 border-t border-stone-100 p-3">
        <Button variant="outline" size="sm" onClick={onView} aria-label={`View Details of order ${order.orderNumber}`}>
          View Details
        </Button>
        {canMarkReady && order.status === 'reserved' && (
          <Button size="sm" onClick={onMarkReady} loading={marking} aria-label={`Mark Ready order ${order.orderNumber}`}>
            Mark Ready
          </Button>
        )}
        {canMarkReady && onComplete && order.status === 'ready' && (
          <Button size="sm" onClick={onComplete} loading={marking} aria-label={`Mark Completed order ${order.orderNumber}`}>
            Mark Completed
          </Button>
        )}
        {canMarkReady && onCancel && ['reserved', 'ready', 'cancel_pending'].includes(order.status) && (
          <Button variant="outline" size="sm" onClick={onCancel} disabled={marking} aria-label={`Cancel order ${order.orderNumber}`}>
            {order.status === 'cancel_pending' ? 'Retry refund' : 'Cancel'}
          </Button>
        )}
      </div>
    </Card>
  );
}

/** Customer, outlet, fulfillment (type and date) and the delivery charge when above 0. */
function OrderFacts({ order }: { order: Order }) {
  return (
    <dl className="grid grid-cols-1 gap-1.5 text-stone-700 sm:grid-cols-2">
      <div className="flex items-center gap-1.5">
        <User className="h-4 w-4 shrink-0 text-stone-400" aria-hidden />
        <dt className="sr-only">Customer</dt>
        <dd className="truncate">{order.customerName}</dd>
      </div>
      <div className="flex items-center gap-1.5">
        <Building2 className="h-4 w-4 shrink-0 text-stone-400" aria-hidden />
        <dt className="sr-only">Outlet</dt>
        <dd className="truncate">{order.outletName}</dd>
      </div>
      <div className="flex items-center gap-1.5">
        {order.fulfillmentType === 'Delivery' ? (
          <Truck className="h-4 w-4 shrink-0 text-stone-400" aria-hidden />
        ) : (
          <CalendarDays className="h-4 w-4 shrink-0 text-stone-400" aria-hidden />
        )}
        <dt className="sr-only">Fulfillment</dt>
        <dd>
          {order.fulfillmentType} · {fulfillmentDateText(order)}
        </dd>
      </div>
      {Number(order.deliveryCharge) > 0 && (
        <div className="flex items-center gap-1.5">
          <dt className="text-stone-500">Delivery charge</dt>
          <dd className="tabular-nums">{formatMoney(order.deliveryCharge)}</dd>
        </div>
      )}
    </dl>
  );
}

/** The first three item lines (quantity × name, line total) and "+ N more". */
function LinesPreview({ order }: { order: Order }) {
  const more = order.items.length - SHOWN_LINES;
  return (
    <div className="rounded-md bg-stone-50 p-3">
      <p className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">{itemsText(order.itemCount)}</p>
      <ul className="space-y-0.5">
        {order.items.slice(0, SHOWN_LINES).map((l) => (
          <li key={l.id} className="flex justify-between gap-3">
            <span className="min-w-0 truncate">
              <span className="tabular-nums text-stone-500">{l.quantity} ×</span> {l.itemName || l.itemCode}
            </span>
            <span className="shrink-0 tabular-nums text-stone-600">{formatMoney(l.totalPrice)}</span>
          </li>
        ))}
        {more > 0 && <li className="text-stone-500">+ {more} more</li>}
      </ul>
    </div>
  );
}
