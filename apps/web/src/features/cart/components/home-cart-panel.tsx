import { Link } from 'react-router-dom';
import { ShoppingCart } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';
import { formatMoney } from '@/lib/format';
import { useCart } from '../api/use-cart';

/** Lines the home cart panel lists (spec 001 §9). */
export const HOME_PANEL_MAX_ITEMS = 5;

/**
 * The home cart panel 'Your Cart' (spec 001 §2): the first 5 lines, the total, 'View more products
 * (N more)' when there are more, and 'View Full Cart' to /cart. Shown beside the shop on large screens.
 */
export function HomeCartPanel() {
  const { cart, loading, canUseCart } = useCart();
  if (!canUseCart) return null;
  const items = cart?.items ?? [];
  const more = items.length - HOME_PANEL_MAX_ITEMS;
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between pb-2">
        <CardTitle className="flex items-center gap-2 text-base">
          <ShoppingCart className="h-4 w-4 text-brand-700" aria-hidden />
          Your Cart
        </CardTitle>
        {items.length > 0 && (
          <span className="text-xs text-stone-500">
            {items.length} {items.length === 1 ? 'product' : 'products'}
          </span>
        )}
      </CardHeader>
      <CardContent className="pb-4">
        {loading && !cart ? (
          <div className="space-y-3" role="status">
            <span className="sr-only">Loading cart...</span>
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : items.length === 0 ? (
          <p className="py-4 text-center text-sm text-stone-500">Your cart is empty</p>
        ) : (
          <>
            <ul className="divide-y divide-stone-100">
              {items.slice(0, HOME_PANEL_MAX_ITEMS).map((l) => (
                <li key={l.id} className="flex items-start justify-between gap-3 py-2.5">
                  <div className="min-w-0">
                    <p className="truncate text-sm font-medium text-stone-900" title={l.name}>
                      {l.name}
                    </p>
                    <p className="text-xs text-stone-500 tabular-nums">
                      {l.quantity} × {formatMoney(l.unitPrice)}
                    </p>
                  </div>
                  <p className="shrink-0 text-sm font-medium tabular-nums text-stone-900">{formatMoney(l.lineTotal)}</p>
                </li>
              ))}
            </ul>
            {more > 0 && (
              <Link to="/cart" className="mt-1 block text-sm font-medium text-brand-700 hover:underline">
                View more products ({more} more)
              </Link>
            )}
          </>
        )}
      </CardContent>
      {cart && items.length > 0 && (
        <CardFooter className="flex-col items-stretch gap-3">
          <div className="flex items-center justify-between text-sm">
            <span className="font-medium text-stone-700">Total</span>
            <span className="text-base font-semibold tabular-nums text-stone-900">{formatMoney(cart.total)}</span>
          </div>
          <Button asChild>
            <Link to="/cart">View Full Cart</Link>
          </Button>
        </CardFooter>
      )}
    </Card>
  );
}
