import { useId } from 'react';
import type { Product } from '@portal/contracts';
import { ProductImage } from '@/components/ui/product-image';
import { formatMoney } from '@/lib/format';
import { CaseFacts } from '@/components/ui/case-facts';
import { InCartBadge, ProductActions, sizeLabel, wantedOf, type ProductHandlers } from './product-actions';

/** A product in the list view: one row with image, name, code, size, price and the two actions. */
export function ProductRow({ product, handlers }: { product: Product; handlers: ProductHandlers }) {
  const nameId = useId();
  return (
    <li aria-labelledby={nameId} className="flex flex-wrap items-center gap-x-4 gap-y-3 px-3 py-3 sm:flex-nowrap sm:px-4">
      <ProductImage category={product.category} name={product.name} className="h-14 w-12 shrink-0" />
      <div className="min-w-0 flex-1">
        <h3 id={nameId} className="line-clamp-2 text-sm font-semibold leading-snug text-stone-900" title={product.name}>
          {product.name}
        </h3>
        <p className="text-xs text-stone-500">
          <span className="sr-only">Item code </span>
          <span className="font-mono">#{product.code}</span>
          <span aria-hidden> · </span>
          {sizeLabel(product)}
        </p>
        <CaseFacts item={product} wanted={wantedOf(product, handlers)} className="mt-0.5" />
        <div className="mt-1 empty:hidden">
          <InCartBadge product={product} handlers={handlers} />
        </div>
      </div>
      <p className="w-20 shrink-0 text-right text-base font-semibold tabular-nums text-stone-900">{formatMoney(product.price)}</p>
      <div className="flex w-full justify-end sm:w-auto">
        <ProductActions product={product} handlers={handlers} layout="list" />
      </div>
    </li>
  );
}
