import type { ComponentProps, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AlertTriangle, ArrowLeft, Lock, ShoppingCart, Store } from 'lucide-react';
import { CHECKOUT_MESSAGES, type Cart } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, PageSpinner } from '@/components/ui/feedback';
import { useSession } from '@/lib/session';
import { useSelection } from '@/lib/selection';
import { formatDate, formatMoney } from '@/lib/format';
import { SplitCaseFeeRow } from './split-case-fee-row';
import { useCart } from '../api/use-cart';
import { useCheckout, CHECKOUT_TOASTS } from '../api/use-checkout';
import { CartLineRow, isLineAvailable } from './cart-line-row';
import { ClearCartButton } from './clear-cart-button';
import { FulfillmentCard } from './fulfillment-card';
import { useDeliveryPlan } from '../api/use-delivery-plan';
import { DeliverySchedulePanel } from './delivery-schedule';
import { DeliveryMinimumNote, EmergencyFeeNote } from './delivery-minimum-note';

/** Cart page texts (spec 001 §2), verbatim. */
export const CART_TEXTS = {
  title: 'My Cart',
  loading: 'Loading cart...',
  continueShopping: 'Continue Shopping',
  empty: 'Your cart is empty',
  checkout: 'Checkout',
  processing: 'Processing...',
  noCheckoutNote: "You don't have permission to checkout. Please contact your administrator.",
  noStore: 'No store selected',
  noStoreHint: 'Please select an outlet from your profile menu to start shopping.',
} as const;

/** Where Continue Shopping leads: the shop (the home page sends signed-in users there anyway). */
const SHOP_PATH = '/shop';

function ContinueShopping({ variant = 'outline', className }: { variant?: 'outline' | 'ghost'; className?: string }) {
  return (
    <Button asChild variant={variant} className={className}>
      <Link to={SHOP_PATH}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        {CART_TEXTS.continueShopping}
      </Link>
    </Button>
  );
}

/** 'STORE NAME | Outlet name' (spec 001 §2): store in upper case, then the outlet name or code. */
export function storeHeading(cart: Pick<Cart, 'store' | 'outlet'>): string {
  const outlet = cart.outlet.name || cart.outlet.code;
  return outlet ? `${cart.store.name.toUpperCase()} | ${outlet}` : cart.store.name.toUpperCase();
}

/**
 * My Cart (spec 001 §2): lines with the quantity box, line totals and remove; fulfillment options;
 * the summary with Subtotal, Delivery and Total; Continue Shopping and Checkout (permission-gated).
 */
export function CartPage() {
  const { status, me } = useSession();
  const { store, loading: selectionLoading } = useSelection();
  const c = useCart();
  const plan = useDeliveryPlan(c.cart);
  const { checkout, processing } = useCheckout({
    cart: c.cart,
    canCheckout: c.canCheckout,
    settled: c.settled,
    reload: c.reload,
    emergency: plan.emergency,
  });

  if (status === 'loading' || (status === 'authenticated' && !me) || selectionLoading) return <PageSpinner text={CART_TEXTS.loading} />;

  const header = (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold text-stone-900">{CART_TEXTS.title}</h1>
      <ContinueShopping variant="ghost" className="-mr-2" />
    </div>
  );
  const frame = (body: ReactNode) => (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      {header}
      {body}
    </div>
  );

  if (!store)
    return frame(<EmptyState icon={<Store className="h-10 w-10" />} title={CART_TEXTS.noStore} description={CART_TEXTS.noStoreHint} />);
  if (!c.canUseCart) {
    return frame(
      <EmptyState
        icon={<Lock className="h-10 w-10" />}
        title="Access Denied"
        description="You don't have permission to add items to cart"
      />,
    );
  }
  if (c.loading && !c.cart) return frame(<PageSpinner text={CART_TEXTS.loading} />);
  if (!c.cart) {
    return frame(
      <EmptyState
        icon={<AlertTriangle className="h-10 w-10" />}
        title="Error loading cart"
        description="We encountered a problem loading your cart. Please try again later."
        action={
          <Button variant="outline" onClick={() => c.reload()}>
            Try again
          </Button>
        }
      />,
    );
  }

  const cart = c.cart;
  if (cart.items.length === 0) {
    return frame(
      <EmptyState
        icon={<ShoppingCart className="h-10 w-10" />}
        title={CART_TEXTS.empty}
        description={`Add products from ${cart.store.name} to start an order.`}
        action={
          <Button asChild>
            <Link to={SHOP_PATH}>{CART_TEXTS.continueShopping}</Link>
          </Button>
        }
      />,
    );
  }

  const unavailable = cart.items.some((l) => !isLineAvailable(l));
  return frame(
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0 space-y-6">
        <CartLinesCard
          cart={cart}
          onClear={c.clear}
          onQuantity={(id, q) => void c.setQuantity(id, q)}
          onRemove={(id) => void c.remove(id)}
        />
        <FulfillmentCard
          cart={cart}
          busy={c.fulfillmentBusy}
          onChange={(type, date) => void c.setFulfillment(type, date)}
          deliverySchedule={
            <DeliverySchedulePanel
              schedule={plan.schedule}
              loading={plan.scheduleLoading}
              failed={plan.scheduleFailed}
              date={cart.fulfillment.date}
              onDate={(d) => void c.setFulfillment('Delivery', d)}
              emergency={plan.emergency}
              onEmergency={plan.setEmergency}
            />
          }
        />
      </div>

      <div className="lg:sticky lg:top-20 lg:self-start">
        <OrderSummaryCard
          cart={cart}
          canCheckout={c.canCheckout}
          unavailable={unavailable}
          processing={processing}
          onCheckout={() => void checkout()}
          notice={
            <>
              <DeliveryMinimumNote shortfall={plan.shortfall} minimumMl={plan.minimum.ml} minimumAmount={plan.minimum.amount} />
              {plan.emergency && <EmergencyFeeNote fee={plan.schedule?.emergencyFee} />}
            </>
          }
        />
      </div>
    </div>,
  );
}

/** The cart's lines under 'STORE | Outlet', with the product count and Clear Cart. */
function CartLinesCard({
  cart,
  onClear,
  onQuantity,
  onRemove,
}: {
  cart: Cart;
  onClear: ComponentProps<typeof ClearCartButton>['onClear'];
  onQuantity: (lineId: Cart['items'][number]['id'], quantity: number) => void;
  onRemove: (lineId: Cart['items'][number]['id']) => void;
}) {
  const n = cart.items.length;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-baseline justify-between gap-2 border-b border-stone-100 pb-4">
        <h2 className="text-sm font-semibold tracking-wide text-stone-700">{storeHeading(cart)}</h2>
        <div className="flex items-center gap-2">
          <p className="text-sm text-stone-500">
            {n} {n === 1 ? 'product' : 'products'}
          </p>
          <ClearCartButton productCount={n} cartLabel={storeHeading(cart)} onClear={onClear} />
        </div>
      </CardHeader>
      <CardContent className="pb-1">
        <ul className="divide-y divide-stone-100" aria-label="Cart items">
          {cart.items.map((l) => (
            <CartLineRow key={l.id} line={l} onQuantity={(q) => onQuantity(l.id, q)} onRemove={() => onRemove(l.id)} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/**
 * Order Summary: Subtotal, Delivery (when charged), Total, the fulfillment line, Checkout (disabled without the
 * permission, with its note, or while a line is unavailable) and Continue Shopping.
 */
function OrderSummaryCard({
  cart,
  canCheckout,
  unavailable,
  processing,
  onCheckout,
  notice,
}: {
  cart: Cart;
  canCheckout: boolean;
  unavailable: boolean;
  processing: boolean;
  onCheckout: () => void;
  /** Shown above Checkout (the delivery minimum's shortfall, issue 28 §2). */
  notice?: ReactNode;
}) {
  const showDelivery = cart.fulfillment.type === 'Delivery' && Number(cart.fulfillment.deliveryCharge) > 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Order Summary</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="space-y-2 text-sm">
          <div className="flex justify-between">
            <dt className="text-stone-600">Subtotal</dt>
            <dd className="tabular-nums text-stone-900">{formatMoney(cart.subtotal)}</dd>
          </div>
          <SplitCaseFeeRow cart={cart} />
          {showDelivery && (
            <div className="flex justify-between">
              <dt className="text-stone-600">Delivery</dt>
              <dd className="tabular-nums text-stone-900">{formatMoney(cart.fulfillment.deliveryCharge)}</dd>
            </div>
          )}
          <div className="flex justify-between border-t border-stone-200 pt-3 text-base font-semibold">
            <dt>Total</dt>
            <dd className="tabular-nums" data-testid="cart-total">
              {formatMoney(cart.total)}
            </dd>
          </div>
        </dl>
        <p className="text-xs text-stone-500">
          {cart.fulfillment.type}
          {cart.fulfillment.date ? ` on ${formatDate(cart.fulfillment.date)}` : ''} · {cart.totalQuantity}{' '}
          {cart.totalQuantity === 1 ? 'bottle' : 'bottles'}
        </p>
        {notice}
        <div className="flex flex-col gap-2">
          <span title={canCheckout ? undefined : CHECKOUT_TOASTS.denied} className="flex">
            <Button
              size="lg"
              className="w-full"
              onClick={onCheckout}
              loading={processing}
              disabled={!canCheckout || unavailable}
              title={canCheckout ? undefined : CHECKOUT_TOASTS.denied}
              aria-describedby={canCheckout ? undefined : 'checkout-permission-note'}
            >
              {processing ? CART_TEXTS.processing : CART_TEXTS.checkout}
            </Button>
          </span>
          {!canCheckout && (
            <p id="checkout-permission-note" className="text-sm text-amber-800">
              {CART_TEXTS.noCheckoutNote}
            </p>
          )}
          {canCheckout && unavailable && (
            <p className="text-sm text-red-700" role="alert">
              {CHECKOUT_MESSAGES.itemsUnavailable}
            </p>
          )}
          <ContinueShopping />
        </div>
      </CardContent>
    </Card>
  );
}
