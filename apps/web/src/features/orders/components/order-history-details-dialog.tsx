import { Store, Truck } from 'lucide-react';
import type { Order } from '@portal/contracts';
import { formatDateTime } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/feedback';
import { useOrder } from '../api/get-order';
import { fulfillmentDateText } from '../lib/order-text';
import { AddressBlock } from './address-block';
import { OrderLinesTable, OrderTotals } from './order-lines-table';
import { OrderStatusBadge } from './order-status-badge';
import { RefundNote } from './refund-note';
import { ReorderButton } from './reorder-button';
import { InvoiceButton } from './invoice-button';
import { EmergencyNote } from './emergency-note';
import { ClaimsSection } from './claims/claims-section';

/**
 * My Orders details dialog (spec 001 §2): order date, status, fulfillment type and date, store
 * information, the delivery address for Delivery orders, items (300 px scroll), totals, re-order and close.
 * The totals sit in the footer, always in view (issue 9 §9); a successful re-order closes the dialog so
 * the toast's View Cart can be clicked (issue 9 §3). The list's order shows at once; store and delivery
 * details come from GET /orders/{id}.
 */
export function OrderHistoryDetailsDialog({ order, onClose }: { order: Order | null; onClose: () => void }) {
  const detail = useOrder(order?.id ?? null);
  const d = detail.data && detail.data.id === order?.id ? detail.data : null;
  return (
    <Dialog
      open={order !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={
        order ? (
          <>
            Order <span className="whitespace-nowrap">{order.orderNumber}</span>
          </>
        ) : (
          'Order'
        )
      }
      className="max-w-2xl"
      footer={
        order && (
          <>
            <OrderTotals
              subtotal={order.subtotal}
              deliveryCharge={order.deliveryCharge}
              total={order.total}
              className="mb-1 sm:mb-0 sm:ml-0 sm:mr-auto sm:max-w-[15rem]"
            />
            <div className="flex w-full flex-wrap justify-end gap-2 self-end sm:w-auto">
              <Button variant="outline" onClick={onClose}>
                Close
              </Button>
              <InvoiceButton order={order} />
              <ReorderButton order={order} onAdded={onClose} />
            </div>
          </>
        )
      }
    >
      {order && (
        <div className="space-y-5">
          <OrderFacts order={order} />
          {d?.emergency && <EmergencyNote fee={d.emergencyFee} />}
          <div className="grid gap-3 sm:grid-cols-2">
            {d ? (
              <>
                <AddressBlock title="Store Information" icon={<Store className="h-3.5 w-3.5" aria-hidden />} address={d.store} />
                {order.fulfillmentType === 'Delivery' && d.delivery && (
                  <AddressBlock title="Delivery Address" icon={<Truck className="h-3.5 w-3.5" aria-hidden />} address={d.delivery} />
                )}
              </>
            ) : detail.error ? (
              <AddressBlock
                title="Store Information"
                icon={<Store className="h-3.5 w-3.5" aria-hidden />}
                address={{ name: order.storeName, address: null, city: null, state: null, zipCode: null, phone: null }}
              />
            ) : (
              <div className="space-y-2 rounded-md border border-stone-200 p-3" aria-label="Loading store information">
                <Skeleton className="h-3 w-24" />
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-4 w-32" />
              </div>
            )}
          </div>
          <OrderLinesTable items={order.items} />
          <ClaimsSection order={order} canReport canResolve={false} />
        </div>
      )}
    </Dialog>
  );
}

/** Order date, status, fulfillment type and date, the cancellation reason and the refund when any. */
function OrderFacts({ order }: { order: Order }) {
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm">
      <div>
        <dt className="text-stone-500">Order Date</dt>
        <dd className="font-medium text-stone-900">{formatDateTime(order.orderDate)}</dd>
      </div>
      <div>
        <dt className="text-stone-500">Status</dt>
        <dd className="mt-0.5">
          <OrderStatusBadge status={order.status} paymentStatus={order.paymentStatus} />
        </dd>
      </div>
      <div>
        <dt className="text-stone-500">Fulfillment Type</dt>
        <dd className="font-medium text-stone-900">{order.fulfillmentType}</dd>
      </div>
      <div>
        <dt className="text-stone-500">Fulfillment Date</dt>
        <dd className="font-medium text-stone-900">{fulfillmentDateText(order)}</dd>
      </div>
      {order.cancelReason && (
        <div className="col-span-2">
          <dt className="text-stone-500">Cancellation reason</dt>
          <dd className="font-medium text-stone-900">{order.cancelReason}</dd>
        </div>
      )}
      {order.refundedAmount && (
        <div className="col-span-2">
          <dt className="text-stone-500">Refund</dt>
          <dd>
            <RefundNote order={order} />
          </dd>
        </div>
      )}
    </dl>
  );
}
