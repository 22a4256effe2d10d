import { useId, type ReactNode } from 'react';
import { Info, MapPin, Store, Truck, PackageCheck } from 'lucide-react';
import type { Cart, FulfillmentType } from '@portal/contracts';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/field';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { DatePicker } from '@/components/ui/date-picker';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/cn';

/** Fulfillment texts of spec 001 §2, verbatim. */
export const FULFILLMENT_TEXTS = {
  dateLabel: 'Select Pickup/Delivery Date (Optional)',
  deliveryUnavailable: 'Delivery is not available from this store.',
  pickupOnly: 'Your order will be prepared for pickup.',
} as const;

/**
 * Fulfillment options (spec 001 §2, §4): Pickup or Delivery (with the store's charge), an optional date
 * (past days disabled), the delivery-unavailable notice, and where the order goes: outlet and store.
 * Every change is saved to the cart at once.
 */
export function FulfillmentCard({
  cart,
  onChange,
  busy,
  deliverySchedule,
}: {
  cart: Cart;
  onChange: (type: FulfillmentType, date: string | null) => void;
  busy?: boolean;
  /** Replaces the date field for Delivery: the store's schedule and its delivery dates (issue 28 §1). */
  deliverySchedule?: ReactNode;
}) {
  const baseId = useId();
  const dateId = `${baseId}-date`;
  const { type, date } = cart.fulfillment;
  const deliveryEnabled = cart.store.deliveryEnabled;
  const charge = Number(cart.store.deliveryCharge);
  const location = [cart.store.city, cart.store.state].filter(Boolean).join(', ');
  const option = (value: FulfillmentType, label: string, icon: ReactNode, extra?: ReactNode) => (
    <label
      htmlFor={`${baseId}-${value}`}
      className={cn(
        'flex cursor-pointer items-center gap-3 rounded-md border p-3 transition-colors',
        type === value ? 'border-brand-600 bg-brand-50' : 'border-stone-200 hover:bg-stone-50',
      )}
    >
      <RadioGroupItem id={`${baseId}-${value}`} value={value} />
      <span className="text-stone-500" aria-hidden>
        {icon}
      </span>
      <span className="flex-1 text-sm font-medium text-stone-900">{label}</span>
      {extra}
    </label>
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Fulfillment Options</CardTitle>
      </CardHeader>
      <CardContent className="space-y-5">
        <RadioGroup
          value={type}
          onValueChange={(v) => onChange(v as FulfillmentType, date)}
          aria-label="Fulfillment"
          aria-busy={busy || undefined}
          className="grid-cols-1 sm:grid-cols-2"
        >
          {option('Pickup', 'Pickup', <PackageCheck className="h-4 w-4" />)}
          {deliveryEnabled &&
            option(
              'Delivery',
              'Delivery',
              <Truck className="h-4 w-4" />,
              <span className="text-sm tabular-nums text-stone-600">{charge > 0 ? `+${formatMoney(charge)}` : 'Free'}</span>,
            )}
        </RadioGroup>
        {!deliveryEnabled && (
          <div className="flex gap-2 rounded-md bg-stone-100 p-3 text-sm text-stone-700" role="note">
            <Info className="mt-0.5 h-4 w-4 shrink-0 text-stone-500" aria-hidden />
            <div>
              <p className="font-medium">{FULFILLMENT_TEXTS.deliveryUnavailable}</p>
              <p>{FULFILLMENT_TEXTS.pickupOnly}</p>
            </div>
          </div>
        )}
        {type === 'Delivery' && deliverySchedule ? (
          deliverySchedule
        ) : (
          <div className="space-y-1.5">
            <Label htmlFor={dateId}>{FULFILLMENT_TEXTS.dateLabel}</Label>
            <DatePicker id={dateId} value={date} onChange={(d) => onChange(type, d)} disablePast className="sm:max-w-xs" />
          </div>
        )}
        <dl className="grid gap-3 border-t border-stone-100 pt-4 text-sm sm:grid-cols-2">
          <div className="flex gap-2">
            <Store className="mt-0.5 h-4 w-4 shrink-0 text-stone-400" aria-hidden />
            <div>
              <dt className="text-xs uppercase tracking-wide text-stone-500">Outlet</dt>
              <dd className="font-medium text-stone-900">{cart.outlet.name || cart.outlet.code}</dd>
            </div>
          </div>
          <div className="flex gap-2">
            <MapPin className="mt-0.5 h-4 w-4 shrink-0 text-stone-400" aria-hidden />
            <div>
              <dt className="text-xs uppercase tracking-wide text-stone-500">Store</dt>
              <dd className="font-medium text-stone-900">{cart.store.name}</dd>
              {location && <dd className="text-stone-600">{location}</dd>}
            </div>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
