import { useMemo, useState } from 'react';
import type { Product } from '@portal/contracts';
import { ShopPage } from '@/features/shop/components/shop-page';
import type { ProductHandlers } from '@/features/shop/components/product-actions';
import { preloadCurrentCart, useCart } from '@/features/cart/api/use-cart';
import { CartSummaryButton } from '@/features/cart/components/cart-summary-button';
import { HomeCartPanel } from '@/features/cart/components/home-cart-panel';
import { PricingDialog } from '@/features/pricing/components/pricing-dialog';
import { preloadProducts } from '@/features/shop/api/get-products';
import { preloadBottleSizes } from '@/features/shop/api/get-bottle-sizes';
import { readShopView } from '@/features/shop/hooks/use-shop-view';
import { whenSelectionKnown } from '@/lib/selection';

// A signed-in page load: the saved view's products and the store's sizes are asked for as soon as the saved
// selection is known, alongside the outlet's stores, and the cart once /me has answered (issue 26).
whenSelectionKnown(({ outletId, storeId }) => {
  if (!storeId) return;
  const { search, size, page } = readShopView();
  preloadProducts(storeId, { search, size, page });
  preloadBottleSizes(storeId);
  preloadCurrentCart(outletId, storeId);
});

/** /shop: the catalog (shop feature) wired to the cart (cart feature) and Pricing Analysis (pricing feature). */
export function ShopRoute() {
  const cart = useCart();
  const [pricing, setPricing] = useState<Product | null>(null);
  const { canUseCart, isBusy, add, cart: current } = cart;
  const handlers = useMemo<ProductHandlers>(() => {
    const quantities = new Map((current?.items ?? []).map((l) => [l.itemCode, l.quantity]));
    return { canUseCart, isBusy, onAdd: (p) => void add(p), onPricing: setPricing, inCart: (code) => quantities.get(code) ?? 0 };
  }, [canUseCart, isBusy, add, current]);
  return (
    <>
      <ShopPage handlers={handlers} cartSummary={<CartSummaryButton />} cartPanel={<HomeCartPanel />} />
      <PricingDialog product={pricing} onClose={() => setPricing(null)} />
    </>
  );
}
