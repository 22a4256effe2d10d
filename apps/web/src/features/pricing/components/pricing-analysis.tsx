import { useId, useState } from 'react';
import type { Product } from '@portal/contracts';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/field';
import { formatMoney, formatCount } from '@/lib/format';
import { cn } from '@/lib/cn';
import { analysePricing, parsePrice, SHOT_OUNCES } from '../pricing';

type Priced = Pick<Product, 'code' | 'name' | 'price' | 'bottleSize' | 'volumeMl'>;

/**
 * The Pricing Analysis figures for a product (spec 001 §2, §9): a free-text custom price (parsed as a
 * number, falling back to the item's price), price per ounce and per shot, shots per bottle, and the shot
 * price and bottle profit at the 400 % and 550 % markups. Uses the item's real volume, 750 ml if unknown.
 */
export function PricingAnalysis({ product }: { product: Priced }) {
  const priceId = useId();
  const [custom, setCustom] = useState('');
  const itemPrice = Number(product.price);
  const price = parsePrice(custom, itemPrice);
  const a = analysePricing(price, product.volumeMl);
  const usingCustom = custom.trim() !== '' && price !== itemPrice;
  const invalid = custom.trim() !== '' && parsePrice(custom, -1) === -1;
  return (
    <div className="space-y-5">
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <Figure label="Item price" value={formatMoney(itemPrice)} />
        <Figure
          label="Bottle size"
          value={`${formatCount(a.volumeMl)} ml · ${a.volumeOz.toFixed(1)} oz`}
          hint={a.volumeAssumed ? 'Size unknown: 750 ml assumed' : undefined}
        />
      </dl>

      <div className="space-y-1.5">
        <Label htmlFor={priceId}>Custom price (optional)</Label>
        <div className="relative">
          <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-sm text-stone-500" aria-hidden>
            $
          </span>
          <Input
            id={priceId}
            inputMode="decimal"
            autoComplete="off"
            value={custom}
            onChange={(e) => setCustom(e.target.value)}
            placeholder={Number(product.price).toFixed(2)}
            className="pl-7"
            aria-describedby={`${priceId}-hint`}
            aria-invalid={invalid || undefined}
          />
        </div>
        <p id={`${priceId}-hint`} className={cn('text-xs', invalid ? 'text-amber-700' : 'text-stone-500')}>
          {invalid
            ? `Not a price: using the item price ${formatMoney(itemPrice)}.`
            : usingCustom
              ? `Calculating with ${formatMoney(price)}.`
              : 'Leave empty to use the item price.'}
        </p>
      </div>

      <dl className="grid grid-cols-3 gap-3 text-sm" aria-label="Per ounce and per shot">
        <Figure label="Price per ounce" value={formatMoney(a.pricePerOunce)} />
        <Figure label={`Price per shot (${SHOT_OUNCES} oz)`} value={formatMoney(a.pricePerShot)} />
        <Figure label="Shots per bottle" value={String(a.shotsPerBottle)} />
      </dl>

      <div className="grid gap-3 sm:grid-cols-2">
        {a.markups.map((m) => (
          <div key={m.percent} className="rounded-lg border border-brand-200 bg-brand-50 p-4">
            <p className="text-xs font-semibold uppercase tracking-wide text-brand-800">{m.percent}% markup</p>
            <dl className="mt-2 space-y-1 text-sm">
              <div className="flex justify-between gap-2">
                <dt className="text-stone-600">Shot price</dt>
                <dd className="font-semibold tabular-nums text-stone-900">{formatMoney(m.shotPrice)}</dd>
              </div>
              <div className="flex justify-between gap-2">
                <dt className="whitespace-nowrap text-stone-600">Profit per bottle</dt>
                <dd className="font-semibold tabular-nums text-emerald-700">{formatMoney(m.profit)}</dd>
              </div>
            </dl>
          </div>
        ))}
      </div>
      <p className="text-xs text-stone-500">
        Profit = shot price × {a.shotsPerBottle} shots − bottle price {formatMoney(price)}.
      </p>
    </div>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-md bg-stone-50 p-3">
      <dt className="text-xs text-stone-500">{label}</dt>
      <dd className="mt-0.5 font-semibold tabular-nums text-stone-900">{value}</dd>
      {hint && <dd className="mt-0.5 text-xs text-amber-700">{hint}</dd>}
    </div>
  );
}
