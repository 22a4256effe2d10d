import { MapPin, Phone, Store } from 'lucide-react';
import type { MyOutlet, StoreSummary } from '@portal/contracts';
import { Badge, Skeleton } from '@/components/ui/feedback';
import { useSelection } from '@/lib/selection';
import { useOutletStores } from '../api/get-outlet-stores';
import { RequestOutletsPanel } from './request-outlets-panel';

/** A store's address: address, city, state and zip joined (spec 000 §2). */
export function storeAddress(s: Pick<StoreSummary, 'address' | 'city' | 'state' | 'zipCode'>): string | null {
  const parts = [s.address, s.city, s.state, s.zipCode].map((p) => p?.trim()).filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}

function OutletStores({ outletId }: { outletId: number }) {
  const { data, error, isLoading } = useOutletStores(outletId);
  if (isLoading)
    return (
      <div className="space-y-2" aria-hidden>
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    );
  if (error) return <p className="text-sm text-red-700">{`Failed to fetch stores for outlet: ${error.message}`}</p>;
  const stores = (data?.items ?? []).filter((s) => s.active);
  if (stores.length === 0) return <p className="text-sm text-stone-500">No stores available.</p>;
  return (
    <ul className="divide-y divide-stone-100" aria-label="Stores">
      {stores.map((s) => {
        const address = storeAddress(s);
        return (
          <li key={s.id} className="flex gap-3 py-2.5 first:pt-0 last:pb-0">
            <Store className="mt-0.5 h-4 w-4 shrink-0 text-stone-400" aria-hidden />
            <div className="min-w-0 text-sm">
              <p className="font-medium text-stone-900">{s.name || s.warehouseCode}</p>
              {address && (
                <p className="flex items-start gap-1 text-stone-600">
                  <MapPin className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
                  <span>{address}</span>
                </p>
              )}
              {s.phone && (
                <p className="flex items-center gap-1 text-stone-600">
                  <Phone className="h-3.5 w-3.5 shrink-0" aria-hidden />
                  <a className="hover:underline" href={`tel:${s.phone}`}>
                    {s.phone}
                  </a>
                </p>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function OutletCard({ outlet }: { outlet: MyOutlet }) {
  const place = [outlet.outletCity, outlet.outletState].filter(Boolean).join(', ');
  return (
    <li className="rounded-lg border border-stone-200 p-4">
      <div className="mb-3 flex flex-wrap items-center gap-x-2 gap-y-1">
        <h3 className="font-semibold text-stone-900">
          {outlet.isAdminOutlet ? 'System default outlet' : outlet.outletName || outlet.outletCode}
        </h3>
        <Badge variant="outline">{outlet.outletCode}</Badge>
        {!outlet.outletActive && <Badge variant="warning">Inactive</Badge>}
      </div>
      {(outlet.boardName || place) && (
        <p className="-mt-2 mb-3 text-sm text-stone-500">{[outlet.boardName, place].filter(Boolean).join(' · ')}</p>
      )}
      <OutletStores outletId={outlet.outletId} />
    </li>
  );
}

/** My Outlets (spec 000 §2): each assigned outlet with its active stores, and Request more Outlets. */
export function MyOutlets() {
  const { outlets, outletsLoading, outletsError } = useSelection();
  return (
    <div className="space-y-4">
      {outletsLoading ? (
        <div className="space-y-3" aria-hidden>
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : outletsError ? (
        <p className="text-sm text-red-700">{`Failed to fetch user outlets: ${outletsError.message}`}</p>
      ) : outlets.length === 0 ? (
        <p className="text-sm text-stone-500">No outlets assigned to your account.</p>
      ) : (
        <ul className="space-y-3" aria-label="My outlets">
          {outlets.map((o) => (
            <OutletCard key={o.outletId} outlet={o} />
          ))}
        </ul>
      )}
      <RequestOutletsPanel />
    </div>
  );
}
