import { useId } from 'react';
import type { Product } from '@portal/contracts';
import { ProductImage } from '@/components/ui/product-image';
import { formatMoney } from '@/lib/format';
import { CaseFacts } from '@/components/ui/case-facts';
import { InCartBadge, ProductActions, sizeLabel, wantedOf, type ProductHandlers } from './product-actions';

/** A product in the grid view: image, name, code, bottle size, price, Pricing and Add to Cart. */
export function ProductCard({ product, handlers }: { product: Product; handlers: ProductHandlers }) {
  const nameId = useId();
  return (
    <article
      aria-labelledby={nameId}
      className="flex flex-col overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm transition-shadow hover:shadow-md"
    >
      <ProductImage category={product.category} name={product.name} className="h-28 rounded-none sm:h-36" />
      <div className="flex flex-1 flex-col gap-2 p-3 sm:p-4">
        <div className="flex-1 space-y-1">
          <h3 id={nameId} className="line-clamp-2 text-sm font-semibold leading-snug text-stone-900" title={product.name}>
            {product.name}
          </h3>
          <p className="text-xs text-stone-500">
            <span className="sr-only">Item code </span>
            <span className="font-mono">#{product.code}</span>
            <span aria-hidden> · </span>
            {sizeLabel(product)}
          </p>
          <CaseFacts item={product} wanted={wantedOf(product, handlers)} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
          <p className="text-lg font-semibold tabular-nums text-stone-900">{formatMoney(product.price)}</p>
          <InCartBadge product={product} handlers={handlers} />
        </div>
        <ProductActions product={product} handlers={handlers} layout="grid" />
      </div>
    </article>
  );
}
