import { Calculator, Check, ShoppingCart } from 'lucide-react';
import type { Product } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { caseFactsOf, smallestValid } from '@/lib/quantity-rule';

/** Title of the add button when the user lacks bcc.carts.use (spec 001 §2, verbatim). */
export const NO_CART_PERMISSION_TITLE = "You don't have permission to add items to cart";

/** What a product card or row can do: add to the cart (busy while adding) and open Pricing Analysis. */
export interface ProductHandlers {
  canUseCart: boolean;
  isBusy: (code: string) => boolean;
  onAdd: (product: Product) => void;
  onPricing: (product: Product) => void;
  /** Bottles of this code already in the cart (0 when none). */
  inCart?: (code: string) => number;
}

/** 'In cart: n' next to the price when the cart already holds the product. */
export function InCartBadge({ product, handlers }: { product: Product; handlers: ProductHandlers }) {
  const n = handlers.inCart?.(product.code) ?? 0;
  if (n <= 0) return null;
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">
      <Check className="h-3 w-3" aria-hidden />
      In cart: {n}
    </span>
  );
}

/** Bottles the buyer wants of a product: what the cart holds, or the first valid quantity (low stock compares with it). */
export function wantedOf(product: Product, handlers: ProductHandlers): number {
  const inCart = handlers.inCart?.(product.code) ?? 0;
  return inCart > 0 ? inCart : smallestValid(caseFactsOf(product).rule);
}

/** Bottle size name, or the volume in oz when the size is unknown (spec 001 §2). */
export function sizeLabel(p: Pick<Product, 'bottleSize' | 'volumeMl'>): string {
  if (p.bottleSize && p.bottleSize !== 'Unknown Size') return p.bottleSize;
  if (p.volumeMl) return `${(p.volumeMl / 29.5735).toFixed(1)} oz`;
  return p.bottleSize || 'Unknown Size';
}

/** The Pricing and add-to-cart buttons of a product; names carry the product for screen readers. */
export function ProductActions({ product, handlers, layout }: { product: Product; handlers: ProductHandlers; layout: 'grid' | 'list' }) {
  const busy = handlers.isBusy(product.code);
  const denied = !handlers.canUseCart;
  return (
    <div className={cn('flex gap-2', layout === 'grid' ? 'flex-col sm:flex-row' : 'flex-row')}>
      <Button variant="outline" size="sm" className={cn(layout === 'grid' && 'sm:flex-1')} onClick={() => handlers.onPricing(product)}>
        <Calculator className="h-4 w-4" aria-hidden />
        Pricing<span className="sr-only">: {product.name}</span>
      </Button>
      <span title={denied ? NO_CART_PERMISSION_TITLE : undefined} className={cn('flex', layout === 'grid' && 'sm:flex-1')}>
        <Button
          size="sm"
          className="w-full"
          onClick={() => handlers.onAdd(product)}
          disabled={denied}
          loading={busy}
          title={denied ? NO_CART_PERMISSION_TITLE : undefined}
        >
          {!busy && <ShoppingCart className="h-4 w-4" aria-hidden />}
          {busy ? 'Adding...' : 'Add to Cart'}
          <span className="sr-only">: {product.name}</span>
        </Button>
      </span>
    </div>
  );
}
