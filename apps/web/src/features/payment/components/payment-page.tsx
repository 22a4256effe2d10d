import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AlertTriangle, ArrowLeft, Clock } from 'lucide-react';
import type { CheckoutSession } from '@portal/contracts';
import { useSelection } from '@/lib/selection';
import { Badge, PageSpinner } from '@/components/ui/feedback';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { clearStoredCheckout } from '@/lib/checkout-storage';
import { ACCESS_MESSAGES, usePaymentAccess } from '../lib/use-payment-access';
import { useMinutesLeft } from '../lib/use-minutes-left';
import { usePlaceOrder } from '../lib/use-place-order';
import { OrderSummary } from './order-summary';
import { PaymentMethodCard, type PaymentMethod } from './payment-method-card';

/** Delay before a denied payment page goes back to the cart (spec 002 §9). */
export const DENIED_REDIRECT_MS = 3000;

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

/** The payment page once access is granted: header with the session's minutes left, the summary and the method card. */
function PaymentForm({ session, minutes, onEnded }: { session: CheckoutSession; minutes: number; onEnded: (message: string) => void }) {
  const { store, outlet } = useSelection();
  const isDelivery = session.fulfillmentType === 'Delivery';
  const { processing, failure, cardsRefused, payCard, payInStore } = usePlaceOrder(session, onEnded);
  // A store without card payments (issue 16 §5) is said up front: no card form, Pay In-Store only.
  const cardsAvailable = session.cardPaymentsAvailable !== false && !cardsRefused;
  const [method, setMethod] = useState<PaymentMethod>(cardsAvailable ? 'card' : 'in_store');

  useEffect(() => {
    if (isDelivery) setMethod('card');
  }, [isDelivery]);
  useEffect(() => {
    if (!cardsAvailable) setMethod('in_store');
  }, [cardsAvailable]);

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
        <PaymentMethodCard
          session={session}
          cardsAvailable={cardsAvailable}
          method={method}
          onMethodChange={setMethod}
          processing={processing}
          failure={failure}
          onPayCard={payCard}
          onPayInStore={payInStore}
        />
      </div>
    </div>
  );
}
