import { Truck, Siren } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { deliveryDayText, formatMoney } from '@/lib/format';
import { useStoreDeliveries } from '../api/deliveries';

/**
 * "Tomorrow's deliveries" (issue 28 §1) on Store Orders for store managers: the orders to deliver tomorrow in
 * the store's time zone (outlet, items, total, emergency flag), each opening the order's details. Each delivery is a
 * labelled group (not a list item, so the order cards' list stays the page's one list of orders).
 */
export function TomorrowsDeliveries({ storeId, onView }: { storeId: number | undefined; onView: (orderId: number) => void }) {
  const res = useStoreDeliveries(storeId);
  const items = res.data?.items ?? [];
  const day = res.data?.date ?? null;
  return (
    <Card className="mb-6" aria-labelledby="tomorrows-deliveries-title">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2 pb-3">
        <div>
          <CardTitle id="tomorrows-deliveries-title" className="flex items-center gap-2 text-base">
            <Truck className="h-4 w-4 text-stone-500" aria-hidden />
            Tomorrow&apos;s deliveries
          </CardTitle>
          {day && <p className="text-sm text-stone-500">{deliveryDayText(day)}</p>}
        </div>
        {res.data && (
          <span className="text-sm tabular-nums text-stone-500">
            {items.length} {items.length === 1 ? 'order' : 'orders'}
          </span>
        )}
      </CardHeader>
      <CardContent>
        {res.isLoading ? (
          <Skeleton className="h-10 w-full" />
        ) : res.error && !res.data ? (
          <p className="text-sm text-red-700" role="alert">
            Tomorrow&apos;s deliveries could not be loaded.{' '}
            <Button variant="link" onClick={() => void res.mutate()}>
              Try again
            </Button>
          </p>
        ) : items.length === 0 ? (
          <p className="text-sm text-stone-500">No deliveries for tomorrow.</p>
        ) : (
          <div className="divide-y divide-stone-100" role="group" aria-label="Tomorrow's deliveries">
            {items.map((d) => (
              <div
                key={d.orderId}
                role="group"
                aria-label={`Delivery ${d.orderNumber}`}
                className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2 text-sm"
              >
                <span className="font-medium text-stone-900">{d.orderNumber}</span>
                {d.emergency && (
                  <span className="inline-flex items-center gap-1 rounded bg-red-50 px-1.5 text-xs font-medium text-red-700">
                    <Siren className="h-3 w-3" aria-hidden />
                    Emergency
                  </span>
                )}
                <span className="min-w-0 basis-full truncate text-stone-700 sm:basis-0 sm:flex-1">
                  {d.outletName}
                  {d.city ? <span className="text-stone-500"> · {d.city}</span> : null}
                </span>
                <span className="text-stone-500">{d.itemCount === 1 ? '1 item' : `${d.itemCount} items`}</span>
                <span className="tabular-nums text-stone-900">{formatMoney(d.total)}</span>
                <Button
                  variant="outline"
                  size="sm"
                  className="ml-auto sm:ml-0"
                  onClick={() => onView(d.orderId)}
                  aria-label={`View delivery ${d.orderNumber}`}
                >
                  View
                </Button>
              </div>
            ))}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
