import { CalendarClock, Plus, Search, Trash2 } from 'lucide-react';
import type { z } from 'zod';
import type { AdminOutlet, storeOutletSchema } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Table, Td, Th } from '@/components/ui/table';
import type { useOutletSearch } from '../api/stores';

/** An assigned outlet as GET /admin/stores/{id}/outlets lists it. */
export type StoreOutlet = z.infer<typeof storeOutletSchema>;

/** Assign an outlet: the search box and the matching outlets, each Assigned or with an Assign button. */
export function OutletAssignSearch({
  search,
  onSearchChange,
  query,
  found,
  assigned,
  busy,
  onAssign,
}: {
  search: string;
  onSearchChange: (text: string) => void;
  /** The debounced, trimmed search: nothing is listed while empty. */
  query: string;
  found: ReturnType<typeof useOutletSearch>;
  assigned: Set<number>;
  busy: number | null;
  onAssign: (outlet: AdminOutlet) => void;
}) {
  return (
    <div className="space-y-2">
      <label htmlFor="assign-search" className="text-sm font-medium text-stone-800">
        Assign an outlet
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
        <Input
          id="assign-search"
          type="search"
          className="pl-9"
          placeholder="Search outlets by name, code or city"
          value={search}
          onChange={(e) => onSearchChange(e.target.value)}
        />
      </div>
      {query && (
        <ul className="divide-y divide-stone-100 rounded-md border border-stone-200" aria-label="Matching outlets">
          {found.data?.items.length ? (
            found.data.items.map((o) => (
              <li key={o.id} className="flex items-center justify-between gap-2 px-3 py-2 text-sm">
                <span>
                  <span className="font-medium">{o.name}</span> <span className="text-stone-500">({o.outletCode})</span>
                </span>
                {assigned.has(o.id) ? (
                  <span className="text-xs text-stone-500">Assigned</span>
                ) : (
                  <Button size="sm" variant="outline" loading={busy === o.id} onClick={() => onAssign(o)} aria-label={`Assign ${o.name}`}>
                    <Plus className="h-4 w-4" aria-hidden />
                    Assign
                  </Button>
                )}
              </li>
            ))
          ) : (
            <li className="px-3 py-2 text-sm text-stone-500">{found.isLoading ? 'Searching…' : 'No outlets match.'}</li>
          )}
        </ul>
      )}
    </div>
  );
}

/** The assigned outlets: name (inactive marked), code, city and state; Remove for those who may edit. */
export function AssignedOutletsTable({
  outlets,
  canEdit,
  busy,
  onRemove,
  onSchedule,
}: {
  outlets: StoreOutlet[];
  canEdit: boolean;
  busy: number | null;
  onRemove: (outlet: StoreOutlet) => void;
  /** Opens the outlet's own order schedule at this store (issue 28 §1). */
  onSchedule?: (outlet: StoreOutlet) => void;
}) {
  // Below 640 px each row is a card (name; code and city; Remove): no sideways scrolling (issue 26 §6).
  const cell = 'max-sm:border-0';
  return (
    <Table aria-label="Assigned outlets" className="max-sm:min-w-0">
      <thead className="max-sm:sr-only">
        <tr>
          <Th>Outlet</Th>
          <Th>Code</Th>
          <Th>City</Th>
          {canEdit && (
            <Th>
              <span className="sr-only">Actions</span>
            </Th>
          )}
        </tr>
      </thead>
      <tbody>
        {outlets.map((o) => (
          <tr
            key={o.outletId}
            className="max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:border-b max-sm:border-stone-100 max-sm:py-1"
          >
            <Td className={`${cell} font-medium max-sm:w-full max-sm:pb-0`}>
              {o.outletName}
              {!o.active && <span className="ml-2 text-xs text-stone-500">(inactive)</span>}
            </Td>
            <Td className={`${cell} font-mono text-xs max-sm:text-stone-600`}>{o.outletCode}</Td>
            <Td className={`${cell} max-sm:flex-auto max-sm:whitespace-nowrap max-sm:text-xs max-sm:text-stone-600`}>
              {o.city ?? '—'}
              {o.state ? `, ${o.state}` : ''}
            </Td>
            {canEdit && (
              <Td className={`${cell} whitespace-nowrap`}>
                {onSchedule && (
                  <Button variant="ghost" size="sm" onClick={() => onSchedule(o)} aria-label={`Order schedule for ${o.outletName}`}>
                    <CalendarClock className="h-4 w-4" aria-hidden />
                    Schedule
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  loading={busy === o.outletId}
                  onClick={() => onRemove(o)}
                  aria-label={`Remove ${o.outletName}`}
                >
                  <Trash2 className="h-4 w-4" aria-hidden />
                  Remove
                </Button>
              </Td>
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
