import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { CheckCircle2, History, ShoppingBag, Store, Truck } from 'lucide-react';
import type { OrderDetail } from '@portal/contracts';
import { formatDateTime } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, PageSpinner } from '@/components/ui/feedback';
import { useConfirmationOrder } from '../lib/use-confirmation-order';
import { fulfillmentDateText } from '../lib/order-text';
import { AddressBlock } from './address-block';
import { OrderLinesTable, OrderTotals } from './order-lines-table';
import { OrderStatusBadge } from './order-status-badge';

/** Buttons of the confirmation (spec 002 §2): to /order-history and to /. */
function NextSteps() {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
      <Button asChild variant="outline" size="lg">
        <Link to="/order-history">
          <History className="h-4 w-4" aria-hidden />
          View Order History
        </Link>
      </Button>
      <Button asChild size="lg">
        <Link to="/">
          <ShoppingBag className="h-4 w-4" aria-hidden />
          Continue Shopping
        </Link>
      </Button>
    </div>
  );
}

function paymentText(order: OrderDetail): string {
  if (order.paymentMethod === 'in_store') return 'Pay in-store when you collect the order';
  const card = order.payment?.cardLast4 ? `${order.payment.cardBrand ?? 'Card'} ending in ${order.payment.cardLast4}` : 'Card';
  return order.paymentStatus === 'paid' ? `Paid · ${card}` : card;
}

/**
 * /order-confirmation/{orderId} (spec 002 §2, §4): finds the order with retries and fallbacks, then shows
 * number, date, items, totals, store and fulfillment; 'Order not found' when nothing can be found.
 */
export function OrderConfirmation({ orderIdParam, rememberedId }: { orderIdParam: string | undefined; rememberedId: number | null }) {
  const navigate = useNavigate();
  const location = useLocation();
  const fromFallback = Boolean((location.state as { fallback?: boolean } | null)?.fallback);
  const parsed = Number(orderIdParam);
  const orderId = Number.isInteger(parsed) && parsed > 0 ? parsed : null;
  const result = useConfirmationOrder(orderId, rememberedId, !fromFallback);

  useEffect(() => {
    if (result.state === 'redirect') navigate(`/order-confirmation/${result.orderId}`, { replace: true, state: { fallback: true } });
  }, [result, navigate]);

  if (result.state === 'loading' || result.state === 'redirect') return <PageSpinner text="Loading your order..." />;
  if (result.state === 'not-found') {
    return (
      <div className="mx-auto max-w-2xl px-4 py-12">
        <EmptyState
          title="Order not found"
          description="We could not find this order. It may still be processing; check your order history in a moment."
          action={<NextSteps />}
        />
      </div>
    );
  }

  const { order } = result;
  const isDelivery = order.fulfillmentType === 'Delivery';
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div className="flex flex-col items-center gap-2 text-center">
        <CheckCircle2 className="h-12 w-12 text-emerald-600" aria-hidden />
        <h1 className="text-2xl font-semibold text-stone-900">Thank you for your order!</h1>
        <p className="text-stone-600">
          Order <span className="whitespace-nowrap font-semibold text-stone-900">{order.orderNumber}</span> has been placed.
          {order.customerEmail && (
            <>
              {' '}
              A confirmation will be emailed to <span className="font-medium text-stone-900">{order.customerEmail}</span>.
            </>
          )}
        </p>
      </div>

      <Card>
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
          <CardTitle>
            Order <span className="whitespace-nowrap">{order.orderNumber}</span>
          </CardTitle>
          <OrderStatusBadge status={order.status} />
        </CardHeader>
        <CardContent className="space-y-5">
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-stone-500">Order date</dt>
              <dd className="font-medium text-stone-900">{formatDateTime(order.orderDate)}</dd>
            </div>
            <div>
              <dt className="text-stone-500">Payment</dt>
              <dd className="font-medium text-stone-900">{paymentText(order)}</dd>
            </div>
            <div>
              <dt className="text-stone-500">Fulfillment</dt>
              <dd className="font-medium text-stone-900">{order.fulfillmentType}</dd>
            </div>
            <div>
              <dt className="text-stone-500">{order.fulfillmentType} date</dt>
              <dd className="font-medium text-stone-900">{fulfillmentDateText(order)}</dd>
            </div>
          </dl>
          <div className="grid gap-3 sm:grid-cols-2">
            <AddressBlock
              title={isDelivery ? 'Store' : 'Pick up at'}
              icon={<Store className="h-3.5 w-3.5" aria-hidden />}
              address={order.store}
            />
            {isDelivery && order.delivery && (
              <AddressBlock title="Delivery address" icon={<Truck className="h-3.5 w-3.5" aria-hidden />} address={order.delivery} />
            )}
          </div>
          <div className="space-y-3">
            <h2 className="text-sm font-semibold text-stone-900">Items ({order.itemCount})</h2>
            <OrderLinesTable items={order.items} scroll={false} />
            <OrderTotals subtotal={order.subtotal} deliveryCharge={order.deliveryCharge} total={order.total} />
          </div>
        </CardContent>
      </Card>
      <NextSteps />
    </div>
  );
}
