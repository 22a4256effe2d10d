import type { OrderLine } from '@portal/contracts';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/format';

/**
 * Items of an order: Product, Qty, Price, Total, scrolling within 300 px (spec 001 §2 details dialogs).
 * Store staff see 'Item' / 'Unit' headings and 'Code …' (`variant="store"`).
 */
export function OrderLinesTable({
  items,
  scroll = true,
  variant = 'customer',
}: {
  items: OrderLine[];
  scroll?: boolean;
  variant?: 'customer' | 'store';
}) {
  const store = variant === 'store';
  return (
    <div className={scroll ? 'max-h-[300px] overflow-y-auto rounded-md border border-stone-200' : 'rounded-md border border-stone-200'}>
      <table className="w-full text-sm">
        <thead className="sticky top-0 bg-stone-50 text-left text-xs uppercase tracking-wide text-stone-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {store ? 'Item' : 'Product'}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Qty
            </th>
            <th scope="col" className="hidden px-3 py-2 text-right font-medium sm:table-cell">
              {store ? 'Unit' : 'Price'}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Total
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {items.map((l) => (
            <tr key={l.id}>
              <td className="px-3 py-2">
                <div className="font-medium text-stone-900">{l.itemName || l.itemCode}</div>
                <div className="text-xs text-stone-500">
                  <span className="whitespace-nowrap">{store ? `Code ${l.itemCode}` : `#${l.itemCode}`}</span>
                  {l.bottleSizeText && (
                    <>
                      {' '}
                      · <span className="whitespace-nowrap">{l.bottleSizeText}</span>
                    </>
                  )}
                  <span className="sm:hidden">
                    {' '}
                    · <span className="whitespace-nowrap">{formatMoney(l.unitPrice)} each</span>
                  </span>
                </div>
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{l.quantity}</td>
              <td className="hidden px-3 py-2 text-right tabular-nums sm:table-cell">{formatMoney(l.unitPrice)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatMoney(l.totalPrice)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Subtotal, delivery charge and total of an order (subtotal = total − delivery charge). */
export function OrderTotals({
  subtotal,
  deliveryCharge,
  total,
  totalLabel = 'Order Total',
  className,
}: {
  subtotal: string;
  deliveryCharge: string;
  total: string;
  totalLabel?: string;
  className?: string;
}) {
  return (
    <dl className={cn('ml-auto w-full max-w-xs space-y-1.5 text-sm', className)}>
      <div className="flex justify-between">
        <dt className="text-stone-500">Subtotal</dt>
        <dd className="tabular-nums">{formatMoney(subtotal)}</dd>
      </div>
      <div className="flex justify-between">
        <dt className="text-stone-500">Delivery Charge</dt>
        <dd className="tabular-nums">{formatMoney(deliveryCharge)}</dd>
      </div>
      <div className="flex justify-between border-t border-stone-200 pt-1.5 text-base font-semibold text-stone-900">
        <dt>{totalLabel}</dt>
        <dd className="tabular-nums">{formatMoney(total)}</dd>
      </div>
    </dl>
  );
}
