import { useId, type FormEvent } from 'react';
import { Search, X } from 'lucide-react';
import { CATALOG_LIMITS, type BottleSize } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { SHOP_TEXTS } from './shop-texts';

/**
 * The shop's search (Enter or the Search button commits the draft), the bottle size filter (a saved size no
 * longer listed still shows as "Size #id") and Clear All while a filter is on (spec 001 §2).
 */
export function ShopFilters({
  draft,
  onDraftChange,
  onSubmit,
  size,
  sizes,
  onSizeChange,
  filtered,
  onClear,
}: {
  draft: string;
  onDraftChange: (text: string) => void;
  onSubmit: (e: FormEvent) => void;
  size: number | null;
  sizes: BottleSize[] | undefined;
  onSizeChange: (size: number | null) => void;
  filtered: boolean;
  onClear: () => void;
}) {
  const searchId = useId();
  const sizeId = useId();
  return (
    <div className="rounded-lg border border-stone-200 bg-white p-3 shadow-sm sm:p-4">
      <div className="flex flex-col gap-3 md:flex-row md:items-end">
        <form role="search" onSubmit={onSubmit} className="flex min-w-0 flex-1 flex-col gap-1.5">
          <Label htmlFor={searchId}>Search products</Label>
          <div className="flex gap-2">
            <div className="relative min-w-0 flex-1">
              <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
              <Input
                id={searchId}
                type="search"
                value={draft}
                maxLength={CATALOG_LIMITS.maxSearchLength}
                onChange={(e) => onDraftChange(e.target.value)}
                placeholder={SHOP_TEXTS.searchPlaceholder}
                className="pl-9"
                enterKeyHint="search"
              />
            </div>
            <Button type="submit" className="px-3 sm:px-4">
              <Search className="h-4 w-4 sm:hidden" aria-hidden />
              <span className="sr-only sm:not-sr-only">Search</span>
            </Button>
          </div>
        </form>
        <div className="flex items-end gap-2">
          <div className="flex min-w-0 flex-1 flex-col gap-1.5 md:w-44 md:flex-none">
            <Label htmlFor={sizeId}>Bottle size</Label>
            <Select id={sizeId} value={size ?? ''} onChange={(e) => onSizeChange(e.target.value ? Number(e.target.value) : null)}>
              <option value="">{SHOP_TEXTS.allSizes}</option>
              {(sizes ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
              {size && !sizes?.some((s) => s.id === size) && <option value={size}>Size #{size}</option>}
            </Select>
          </div>
          {filtered && (
            <Button variant="ghost" onClick={onClear} className="text-brand-800">
              <X className="h-4 w-4" aria-hidden />
              {SHOP_TEXTS.clearAll}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
