import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { AlertTriangle, ArrowLeft, Clock, CreditCard, Store } from 'lucide-react';
import {
  PROBLEM_CODES,
  CHECKOUT_MESSAGES,
  PAYMENT_ERROR_MESSAGES,
  PAYMENT_SETUP_CODE,
  type Card as CardData,
  type CheckoutSession,
  type CreateOrderBody,
} from '@portal/contracts';
import { ApiError } from '@/lib/api';
import { useSelection } from '@/lib/selection';
import { formatMoney } from '@/lib/format';
import { Badge, PageSpinner } from '@/components/ui/feedback';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/field';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { notify } from '@/components/ui/toaster';
import { createOrder } from '../api/create-order';
import { isCartKey } from '@/lib/cart-cache';
import { clearStoredCheckout, rememberLastOrder } from '@/lib/checkout-storage';
import { retry } from '@/lib/retry';
import { ACCESS_MESSAGES, usePaymentAccess } from '../lib/use-payment-access';
import { isTransientPaymentError, paymentErrorMessage } from '../lib/payment-errors';
import { useMinutesLeft } from '../lib/use-minutes-left';
import { CardForm } from './card-form';
import { OrderSummary } from './order-summary';

/** Delay before a denied payment page goes back to the cart (spec 002 §9). */
export const DENIED_REDIRECT_MS = 3000;
const RETRY_DELAY_MS = 1000;

/** Refusals that end this checkout: the person must start again from the cart (a payment error blocks the session). */
const ENDS_CHECKOUT = new Set<string>([
  PROBLEM_CODES.checkoutSessionExpired,
  PROBLEM_CODES.checkoutSessionUsed,
  PROBLEM_CODES.checkoutCartChanged,
  PROBLEM_CODES.checkoutItemsUnavailable,
  PROBLEM_CODES.checkoutSessionNotFound,
  PROBLEM_CODES.paymentError,
  // A card payment of this cart awaits the gateway's outcome (issue 8 §1): nothing to retry here; My Orders shows it.
  PROBLEM_CODES.paymentBeingConfirmed,
]);
const ENDED_FALLBACK: Record<string, string> = {
  [PROBLEM_CODES.checkoutSessionExpired]: ACCESS_MESSAGES.expired,
  [PROBLEM_CODES.checkoutSessionUsed]: CHECKOUT_MESSAGES.sessionUsed,
  [PROBLEM_CODES.checkoutCartChanged]: CHECKOUT_MESSAGES.cartChanged,
  [PROBLEM_CODES.checkoutItemsUnavailable]: CHECKOUT_MESSAGES.itemsUnavailable,
  [PROBLEM_CODES.checkoutSessionNotFound]: CHECKOUT_MESSAGES.noSession,
  [PROBLEM_CODES.paymentError]: CHECKOUT_MESSAGES.paymentError,
  [PROBLEM_CODES.paymentBeingConfirmed]: CHECKOUT_MESSAGES.paymentBeingConfirmed,
};

/** /payment (spec 002 §2, §4): access check, then the summary and the card or in-store payment. */
export function PaymentPage() {
  const [params] = useSearchParams();
  const access = usePaymentAccess(params);
  const [ended, setEnded] = useState<string | null>(null);
  const minutes = useMinutesLeft(access.state === 'allowed' ? access.session.expiresAt : null);
  const expired = access.state === 'allowed' && minutes === 0;
  const deniedMessage = ended ?? (access.state === 'denied' ? access.message : expired ? ACCESS_MESSAGES.expired : null);

  useEffect(() => {
    if (expired) clearStoredCheckout();
  }, [expired]);

  if (deniedMessage) return <AccessDenied message={deniedMessage} title={ended || expired ? 'Please restart checkout' : undefined} />;
  if (access.state !== 'allowed') return <PageSpinner text="Checking your checkout session..." />;
  return <PaymentForm session={access.session} minutes={minutes ?? 0} onEnded={setEnded} />;
}

/** Denied: the reason, then back to /cart after 3 s (or at once with the button). */
function AccessDenied({ message, title = 'Unable to open the payment page' }: { message: string; title?: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const id = setTimeout(() => navigate('/cart', { replace: true }), DENIED_REDIRECT_MS);
    return () => clearTimeout(id);
  }, [navigate]);
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-8 text-center">
          <AlertTriangle className="h-10 w-10 text-amber-500" aria-hidden />
          <h1 className="text-lg font-semibold text-stone-900">{title}</h1>
          <p role="alert" className="text-sm text-stone-700">
            {message}
          </p>
          <p className="text-sm text-stone-500">Taking you back to your cart in 3 seconds...</p>
          <Button asChild variant="outline" className="mt-2">
            <Link to="/cart" replace>
              Go to Cart now
            </Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

type Method = 'card' | 'in_store';

function PaymentForm({ session, minutes, onEnded }: { session: CheckoutSession; minutes: number; onEnded: (message: string) => void }) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const { store, outlet } = useSelection();
  const isDelivery = session.fulfillmentType === 'Delivery';
  // A store without card payments (issue 16 §5) is said up front: no card form, Pay In-Store only.
  const [cardsRefused, setCardsRefused] = useState(false);
  const cardsAvailable = session.cardPaymentsAvailable !== false && !cardsRefused;
  const [method, setMethod] = useState<Method>(cardsAvailable ? 'card' : 'in_store');
  const [processing, setProcessing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // One Idempotency-Key per attempt; an unchanged retry after a transient failure reuses it.
  const attempt = useRef<{ key: string; body: string } | null>(null);

  useEffect(() => {
    if (isDelivery) setMethod('card');
  }, [isDelivery]);
  useEffect(() => {
    if (!cardsAvailable) setMethod('in_store');
  }, [cardsAvailable]);

  async function place(body: CreateOrderBody) {
    const fingerprint = JSON.stringify(body);
    if (attempt.current?.body !== fingerprint) attempt.current = { key: crypto.randomUUID(), body: fingerprint };
    const key = attempt.current.key;
    setProcessing(true);
    setFailure(null);
    try {
      const order = await retry(() => createOrder(body, key), {
        attempts: 3,
        delayMs: RETRY_DELAY_MS,
        shouldRetry: isTransientPaymentError,
      });
      attempt.current = null;
      clearStoredCheckout();
      rememberLastOrder(order.id);
      void mutate(isCartKey);
      notify(
        body.paymentMethod === 'card'
          ? { title: 'Payment Successful', description: `Order ${order.orderNumber} has been placed successfully.`, variant: 'success' }
          : {
              title: 'Order Created',
              description: `Order ${order.orderNumber} has been placed successfully. Please pay at the store.`,
              variant: 'success',
            },
      );
      navigate(`/order-confirmation/${order.id}`, { replace: true });
    } catch (e) {
      if (!isTransientPaymentError(e)) attempt.current = null;
      const err = e instanceof ApiError ? e : null;
      const title = body.paymentMethod === 'card' ? 'Payment Failed' : 'Error';
      if (err && ENDS_CHECKOUT.has(err.code)) {
        const message =
          err.code === PROBLEM_CODES.checkoutSessionExpired ? ACCESS_MESSAGES.expired : err.problem.detail || ENDED_FALLBACK[err.code];
        if (err.code === PROBLEM_CODES.paymentError) notify({ title, description: message, variant: 'destructive' });
        clearStoredCheckout();
        onEnded(message);
        return;
      }
      if (err?.code === PAYMENT_SETUP_CODE) setCardsRefused(true);
      // Spec 002 §8: mapped texts (permission, network, timeout, setup), never the raw server text.
      const message = paymentErrorMessage(e, body.paymentMethod);
      setFailure(message);
      notify({ title, description: message, variant: 'destructive' });
      setProcessing(false);
    }
  }

  const payCard = (card: CardData) => place({ checkoutToken: session.token, paymentMethod: 'card', card });
  const payInStore = () => place({ checkoutToken: session.token, paymentMethod: 'in_store' });
  const storeName = store && store.id === session.storeId ? store.name : undefined;
  const outletName = outlet && outlet.outletId === session.outletId ? outlet.outletName : undefined;

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:py-8">
      <Button asChild variant="ghost" size="sm" className="-ml-2 mb-3">
        <Link to="/cart">
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back to Cart
        </Link>
      </Button>
      <div className="mb-6 flex flex-wrap items-center gap-x-4 gap-y-2">
        <h1 className="text-2xl font-semibold text-stone-900">Payment</h1>
        {session.testMode && (
          <Badge variant="warning" className="tracking-wide">
            TEST MODE
          </Badge>
        )}
        <p className="flex items-center gap-1.5 text-sm text-stone-600 sm:ml-auto" aria-live="polite">
          <Clock className="h-4 w-4" aria-hidden />
          Session expires in {minutes} {minutes === 1 ? 'minute' : 'minutes'}
        </p>
      </div>

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="lg:order-2">
          <OrderSummary session={session} storeName={storeName} outletName={outletName} />
        </div>
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
              <RadioGroup
                value={method}
                onValueChange={(v) => setMethod(v as Method)}
                aria-label="Payment method"
                className="sm:grid-cols-2"
              >
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
              <CardForm payLabel={`Pay ${formatMoney(session.total)}`} processing={processing} onPay={payCard} />
            ) : (
              <div className="space-y-3">
                <p className="text-sm text-stone-600">Your order is reserved now and paid at the store when you pick it up.</p>
                <Button size="lg" className="w-full" loading={processing} onClick={payInStore}>
                  {processing ? 'Processing...' : `Place Order (${formatMoney(session.total)})`}
                </Button>
              </div>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
