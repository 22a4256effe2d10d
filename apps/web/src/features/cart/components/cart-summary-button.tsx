import { Link } from 'react-router-dom';
import { ShoppingCart } from 'lucide-react';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/format';
import { useCart } from '../api/use-cart';

/**
 * The shop header's cart summary (spec 001 §2): a cart button to /cart, highlighted when the cart has
 * items, with the product count and the total.
 */
export function CartSummaryButton({ className }: { className?: string }) {
  const { cart } = useCart();
  const count = cart?.itemCount ?? 0;
  const has = count > 0;
  const label = has ? `View cart: ${count} ${count === 1 ? 'product' : 'products'}, ${formatMoney(cart?.total)}` : 'View cart: empty';
  return (
    <Link
      to="/cart"
      aria-label={label}
      title={label}
      className={cn(
        'relative inline-flex h-9 items-center gap-2 rounded-md px-3 text-sm font-medium transition-colors',
        has ? 'bg-brand-700 text-white shadow-sm hover:bg-brand-800' : 'border border-stone-300 bg-white text-stone-700 hover:bg-stone-50',
        className,
      )}
    >
      <ShoppingCart className="h-4 w-4" aria-hidden />
      {has && (
        <span className="tabular-nums" aria-hidden>
          {formatMoney(cart?.total)}
        </span>
      )}
      {has && (
        <span
          className="absolute -right-2 -top-2 flex h-5 min-w-5 items-center justify-center rounded-full bg-stone-900 px-1 text-[11px] font-semibold text-white ring-2 ring-white"
          aria-hidden
        >
          {count}
        </span>
      )}
    </Link>
  );
}
