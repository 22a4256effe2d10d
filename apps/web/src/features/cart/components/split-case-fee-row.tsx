import type { Cart } from '@portal/contracts';
import { formatMoney } from '@/lib/format';

/**
 * The split-case fee line of the order summary (issue 27 §3): shown when the store charges one (policy
 * `split_fee`) and the cart has bottles of incomplete cases; names the fee per bottle.
 */
export function SplitCaseFeeRow({ cart }: { cart: Cart }) {
  const fee = Number(cart.splitCaseFee ?? 0);
  if (!(fee > 0)) return null;
  const perBottle = cart.store.splitCaseFee;
  return (
    <div className="flex justify-between gap-3">
      <dt className="text-stone-600">
        Split-case fee
        {perBottle && <span className="block text-xs text-stone-500">{formatMoney(perBottle)} per bottle of an incomplete case</span>}
      </dt>
      <dd className="tabular-nums text-stone-900">{formatMoney(fee)}</dd>
    </div>
  );
}
