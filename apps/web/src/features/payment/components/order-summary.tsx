import type { CheckoutSession } from '@portal/contracts';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate, formatMoney } from '@/lib/format';
import { DeliveryScheduleNote } from './delivery-schedule-note';

/** What is being paid for: the server-computed totals and the fulfillment of the checkout session. */
export function OrderSummary({ session, storeName, outletName }: { session: CheckoutSession; storeName?: string; outletName?: string }) {
  const isDelivery = session.fulfillmentType === 'Delivery';
  const rows: Array<[string, string]> = [];
  if (storeName) rows.push(['Store', storeName]);
  if (outletName) rows.push(['Outlet', outletName]);
  rows.push(['Fulfillment', session.fulfillmentType]);
  rows.push([`${session.fulfillmentType} date`, session.fulfillmentDate ? formatDate(session.fulfillmentDate) : 'None chosen']);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Order Summary</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <dl className="space-y-2">
          {rows.map(([k, v]) => (
            <div key={k} className="flex justify-between gap-4">
              <dt className="text-stone-500">{k}</dt>
              <dd className="text-right font-medium text-stone-900">{v}</dd>
            </div>
          ))}
        </dl>
        {isDelivery && <DeliveryScheduleNote session={session} />}
        <dl className="space-y-2 border-t border-stone-100 pt-4">
          <div className="flex justify-between gap-4">
            <dt className="text-stone-500">
              Subtotal ({session.itemCount} {session.itemCount === 1 ? 'product' : 'products'})
            </dt>
            <dd className="tabular-nums">{formatMoney(session.subtotal)}</dd>
          </div>
          {isDelivery && Number(session.deliveryCharge) > 0 && (
            <div className="flex justify-between gap-4">
              <dt className="text-stone-500">Delivery</dt>
              <dd className="tabular-nums">{formatMoney(session.deliveryCharge)}</dd>
            </div>
          )}
          {session.emergency && Number(session.emergencyFee ?? 0) > 0 && (
            <div className="flex justify-between gap-4">
              <dt className="text-stone-500">Emergency order fee</dt>
              <dd className="tabular-nums">{formatMoney(session.emergencyFee)}</dd>
            </div>
          )}
          <div className="flex justify-between gap-4 border-t border-stone-100 pt-3 text-base font-semibold text-stone-900">
            <dt>Total</dt>
            <dd className="tabular-nums" data-testid="payment-total">
              {formatMoney(session.total)}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
