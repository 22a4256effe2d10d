import { Link } from 'react-router-dom';
import { AlertTriangle, CreditCard, Store } from 'lucide-react';
import { CHECKOUT_MESSAGES, PAYMENT_ERROR_MESSAGES, type Card as CardData, type CheckoutSession } from '@portal/contracts';
import { formatMoney } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/field';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { CardForm } from './card-form';

export type PaymentMethod = 'card' | 'in_store';

/**
 * The payment page's "Payment method" card (spec 002 §4, §5; issue 16 §5): the card-payments-unavailable notice,
 * the method choice (Delivery is card only), the test-mode card numbers, the last failure, then the card form,
 * the in-store Place Order button, or — Delivery without card payments — a link back to choose Pickup.
 */
export function PaymentMethodCard({
  session,
  cardsAvailable,
  method,
  onMethodChange,
  processing,
  failure,
  onPayCard,
  onPayInStore,
}: {
  session: CheckoutSession;
  cardsAvailable: boolean;
  method: PaymentMethod;
  onMethodChange: (method: PaymentMethod) => void;
  processing: boolean;
  failure: string | null;
  onPayCard: (card: CardData) => unknown;
  onPayInStore: () => unknown;
}) {
  const isDelivery = session.fulfillmentType === 'Delivery';
  return (
    <Card className="lg:order-1">
      <CardHeader>
        <CardTitle>Payment method</CardTitle>
      </CardHeader>
      <CardContent className="space-y-5">
        {!cardsAvailable && (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
            data-testid="payment-setup"
          >
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0 text-amber-600" aria-hidden />
            {isDelivery ? PAYMENT_ERROR_MESSAGES.setupDelivery : PAYMENT_ERROR_MESSAGES.setup}
          </p>
        )}
        {isDelivery ? (
          cardsAvailable && (
            <p className="flex items-start gap-2 rounded-md bg-stone-50 p-3 text-sm text-stone-700">
              <CreditCard className="mt-0.5 h-4 w-4 shrink-0 text-stone-500" aria-hidden />
              {CHECKOUT_MESSAGES.inStoreDelivery}
            </p>
          )
        ) : (
          <MethodChoice method={method} onChange={onMethodChange} processing={processing} cardsAvailable={cardsAvailable} />
        )}
        {session.testMode && method === 'card' && (
          <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-xs text-amber-900">
            Test mode: no real charge is made. <span className="whitespace-nowrap font-mono">4111 1111 1111 1111</span> is approved,{' '}
            <span className="whitespace-nowrap font-mono">4000 0000 0000 0002</span> is declined.
          </p>
        )}
        {failure && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {failure}
          </p>
        )}
        {isDelivery && !cardsAvailable ? (
          <Button asChild variant="outline" className="w-full">
            <Link to="/cart">Choose Pickup in your cart</Link>
          </Button>
        ) : method === 'card' ? (
          <CardForm payLabel={`Pay ${formatMoney(session.total)}`} processing={processing} onPay={onPayCard} />
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-stone-600">Your order is reserved now and paid at the store when you pick it up.</p>
            <Button size="lg" className="w-full" loading={processing} onClick={onPayInStore}>
              {processing ? 'Processing...' : `Place Order (${formatMoney(session.total)})`}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** Credit card or Pay In-Store, as a radio group; card is disabled while card payments are unavailable. */
function MethodChoice({
  method,
  onChange,
  processing,
  cardsAvailable,
}: {
  method: PaymentMethod;
  onChange: (method: PaymentMethod) => void;
  processing: boolean;
  cardsAvailable: boolean;
}) {
  return (
    <RadioGroup value={method} onValueChange={(v) => onChange(v as PaymentMethod)} aria-label="Payment method" className="sm:grid-cols-2">
      {(
        [
          ['card', 'Credit card', CreditCard],
          ['in_store', 'Pay In-Store', Store],
        ] as const
      ).map(([value, label, Icon]) => (
        <Label
          key={value}
          htmlFor={`method-${value}`}
          className="flex cursor-pointer items-center gap-3 rounded-md border border-stone-300 p-3 has-[[data-state=checked]]:border-brand-600 has-[[data-state=checked]]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60"
        >
          <RadioGroupItem id={`method-${value}`} value={value} disabled={processing || (value === 'card' && !cardsAvailable)} />
          <Icon className="h-4 w-4 text-stone-500" aria-hidden />
          {label}
        </Label>
      ))}
    </RadioGroup>
  );
}
