import { useState } from 'react';
import { Search } from 'lucide-react';
import { useSWRConfig } from 'swr';
import { STORE_OUTLET_MESSAGES as T, STORE_OUTLETS_PAGE_SIZE } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, PageSpinner } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { notify } from '@/components/ui/toaster';
import { setStoreOutlet, useOutletSearch, useStoreOutletsPage } from '../api/stores';
import { AssignedOutletsTable, OutletAssignSearch, type StoreOutlet } from './assigned-outlets-parts';
import { OutletScheduleDialog } from './outlet-schedule-dialog';

/** How long the Undo of a removal is offered (ms). */
const UNDO_MS = 10_000;

/**
 * Assign, remove (after a confirmation) and undo a removal (the toast's Undo links the outlet again); every page of
 * the store's Assigned Outlets is refreshed after each change. `busy` is the outlet being changed.
 */
function useOutletLinks(storeId: number, storeName: string) {
  const { mutate } = useSWRConfig();
  const [busy, setBusy] = useState<number | null>(null);
  const refresh = () => mutate((k) => typeof k === 'string' && k.startsWith(`/admin/stores/${storeId}/outlets`));
  const change = async (outletId: number, name: string, assign: boolean, undo = false) => {
    setBusy(outletId);
    try {
      await setStoreOutlet(storeId, outletId, assign);
      if (assign) notify({ title: undo ? T.restored(name) : 'Outlet assigned', description: undo ? storeName : name, variant: 'success' });
      else
        notify({
          title: T.removed(name),
          description: storeName,
          variant: 'success',
          duration: UNDO_MS,
          action: { label: T.undo, onClick: () => void change(outletId, name, true, true) },
        });
      await refresh();
      return true;
    } catch (e) {
      notify({
        title: assign ? 'Failed to assign outlets' : 'Failed to remove outlet',
        description: toApiError(e).message,
        variant: 'destructive',
      });
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { busy, change };
}

/**
 * The store editor's Assigned Outlets tab (spec 002 §2; issue 26 §4): the outlets that may order from the store,
 * paged by the server (25 a page) with a search by name, code or city; with bcc.stores.super_admin (`canEdit`) a
 * search to assign more, and Remove on each row behind a confirmation, then a toast whose Undo links it again.
 */
export function AssignedOutlets({ storeId, storeName = 'this store', canEdit }: { storeId: number; storeName?: string; canEdit: boolean }) {
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const filterQ = useDebouncedValue(filter.trim(), 300);
  const list = useStoreOutletsPage(storeId, { search: filterQ, page, pageSize: STORE_OUTLETS_PAGE_SIZE });
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const found = useOutletSearch(canEdit && q ? q : null);
  // Which of the matches are assigned already: the store's outlets matching the same search (name, code or city).
  const assignedMatches = useStoreOutletsPage(storeId, canEdit && q ? { search: q, pageSize: 100 } : null);
  const assigned = new Set(assignedMatches.data?.items.map((o) => o.outletId));
  const { busy, change } = useOutletLinks(storeId, storeName);
  const [removing, setRemoving] = useState<StoreOutlet | null>(null);
  const [scheduling, setScheduling] = useState<StoreOutlet | null>(null);
  const confirmRemove = async () => {
    if (!removing) return;
    const ok = await change(removing.outletId, removing.outletName, false);
    setRemoving(null);
    if (ok && list.data && list.data.items.length === 1 && page > 1) setPage(page - 1);
  };
  const data = list.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Assigned Outlets</CardTitle>
        <CardDescription>Outlets that may order from this store.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {canEdit && (
          <OutletAssignSearch
            search={search}
            onSearchChange={setSearch}
            query={q}
            found={found}
            assigned={assigned}
            busy={busy}
            onAssign={(o) => void change(o.id, o.name, true)}
          />
        )}
        <div className="space-y-2">
          <label htmlFor="assigned-filter" className="text-sm font-medium text-stone-800">
            Find an assigned outlet
          </label>
          <div className="relative">
            <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
            <Input
              id="assigned-filter"
              type="search"
              className="pl-9"
              placeholder="Filter by name, code or city"
              value={filter}
              onChange={(e) => {
                setFilter(e.target.value);
                setPage(1);
              }}
            />
          </div>
        </div>
        {list.error ? (
          <p role="alert" className="text-sm text-red-600">
            Failed to fetch store details: {list.error.message}
          </p>
        ) : !data ? (
          <PageSpinner />
        ) : !data.items.length ? (
          filterQ ? (
            <EmptyState title={T.noMatch} />
          ) : (
            <EmptyState title="No outlets assigned" description="Assigned outlets can order from this store." />
          )
        ) : (
          <>
            <AssignedOutletsTable outlets={data.items} canEdit={canEdit} busy={busy} onRemove={setRemoving} onSchedule={setScheduling} />
            <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label="assigned outlets" />
          </>
        )}
      </CardContent>
      <AlertDialog
        open={removing !== null}
        onOpenChange={(o) => {
          if (!o && busy === null) setRemoving(null);
        }}
        title={T.removeTitle}
        description={removing ? T.removeBody(removing.outletName, storeName) : ''}
        action={
          <Button variant="destructive" loading={busy !== null} onClick={() => void confirmRemove()}>
            Remove
          </Button>
        }
      />
      {scheduling && <OutletScheduleDialog storeId={storeId} outlet={scheduling} onClose={() => setScheduling(null)} />}
    </Card>
  );
}
