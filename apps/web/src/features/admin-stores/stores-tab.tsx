import { useEffect, useState, type Key } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Warehouse } from 'lucide-react';
import { ADMIN_ORG_MESSAGES, PERMISSIONS, type AdminStore } from '@portal/contracts';
import { formatMoney } from '@/lib/format';
import { useSession } from '@/lib/session';
import { DataTable, type Column } from '@/components/admin/data-table';
import { ResourcePanel, SearchField } from '@/components/admin/resource-panel';
import { usePagedSearch, type PagedSearch } from '@/components/admin/use-paged-search';
import { Badge, EmptyState } from '@/components/ui/feedback';
import { Label } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { fetchStoreIds, useAdminStoresPage, useStoreBoardOptions } from './api/stores';
import { StoresBulkBar } from './components/stores-bulk';

const columns: Column<AdminStore>[] = [
  { header: 'Number', field: 'id', sortKey: 'id', className: 'tabular-nums' },
  {
    header: 'Name',
    sortKey: 'name',
    className: 'font-medium',
    cell: (s) => (
      <Link to={`/admin/store/${s.id}`} className="rounded text-brand-800 hover:underline" onClick={(e) => e.stopPropagation()}>
        {s.name}
      </Link>
    ),
  },
  { header: 'City', sortKey: 'city', cell: (s) => `${s.city ?? '—'}${s.state ? `, ${s.state}` : ''}` },
  { header: 'Board', sortKey: 'board', field: 'boardName' },
  {
    header: 'Delivery',
    sortKey: 'delivery',
    cell: (s) => (s.deliveryEnabled ? formatMoney(s.deliveryCharge) : <span className="text-stone-500">Off</span>),
  },
  {
    header: 'Status',
    sortKey: 'active',
    cell: (s) => (
      <span className="flex flex-wrap gap-1">
        {s.active ? <Badge variant="success">Active</Badge> : <Badge>Inactive</Badge>}
        {!s.hasPaymentCredentials && <Badge variant="warning">No credentials</Badge>}
      </span>
    ),
  },
];

const FILTERS = ['boardId', 'deliveryEnabled', 'active', 'hasCredentials'] as const;

/** A yes/no/any filter as a labelled select. */
function BooleanFilter({
  id,
  label,
  any,
  yes,
  no,
  value,
  onChange,
}: {
  id: string;
  label: string;
  any: string;
  yes: string;
  no: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <div>
      <Label htmlFor={id} className="mb-1 block text-xs font-medium text-stone-600">
        {label}
      </Label>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{any}</option>
        <option value="true">{yes}</option>
        <option value="false">{no}</option>
      </Select>
    </div>
  );
}

/** The Stores tab's search and filters (ARCHITECTURE §5): board, delivery on, active, no payment credentials. */
function StoreFilters({ list }: { list: PagedSearch<(typeof FILTERS)[number]> }) {
  const boards = useStoreBoardOptions().data?.items ?? [];
  const f = list.filters;
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
      <SearchField
        id="stores-search"
        label="Search stores"
        placeholder="Search by name, code, city or number"
        className="relative self-end"
        {...list.searchProps}
      />
      <div>
        <Label htmlFor="stores-board" className="mb-1 block text-xs font-medium text-stone-600">
          Board
        </Label>
        <Select id="stores-board" value={f.boardId} onChange={(e) => list.setFilter('boardId', e.target.value)}>
          <option value="">Any board</option>
          {boards.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </Select>
      </div>
      <BooleanFilter
        id="stores-delivery"
        label="Delivery"
        any="Any delivery"
        yes="Delivery on"
        no="Delivery off"
        value={f.deliveryEnabled}
        onChange={(v) => list.setFilter('deliveryEnabled', v)}
      />
      <BooleanFilter
        id="stores-active"
        label="Status"
        any="Any status"
        yes="Active"
        no="Inactive"
        value={f.active}
        onChange={(v) => list.setFilter('active', v)}
      />
      <BooleanFilter
        id="stores-credentials"
        label="Payment credentials"
        any="Any"
        yes="Has credentials"
        no="No credentials"
        value={f.hasCredentials}
        onChange={(v) => list.setFilter('hasCredentials', v)}
      />
    </div>
  );
}

/**
 * The Stores tab (spec 002 §2; ARCHITECTURE §5 "Administration at scale"): stores in scope, paged on the server
 * (25/50/100, page jump), sorted by any column, filtered by board, delivery, status and payment credentials,
 * all kept in the URL; a row opens /admin/store/{id}; Add Store → /admin/store/new. Editors select stores for
 * the bulk delivery edit (StoresBulkBar).
 */
export function StoresTab() {
  const { hasPermission } = useSession();
  const navigate = useNavigate();
  const list = usePagedSearch({ filters: FILTERS, defaultSort: { key: 'name', dir: 'asc' } });
  const stores = useAdminStoresPage(list.query());
  const canEdit = hasPermission(PERMISSIONS.storesSuperAdmin);
  const [selected, setSelected] = useState<Set<Key>>(new Set());
  const filters = list.filterQuery();
  useEffect(() => setSelected(new Set()), [filters]);
  if (stores.error?.status === 403) return <EmptyState title="Access Denied" description={ADMIN_ORG_MESSAGES.storeViewDenied} />;
  const onSelect = (keys: Key[], checked: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const k of keys)
        if (checked) next.add(k);
        else next.delete(k);
      return next;
    });
  return (
    <ResourcePanel
      id="stores"
      title="Stores"
      addLabel={canEdit ? 'Add Store' : undefined}
      onAdd={() => navigate('/admin/store/new')}
      toolbar={<StoreFilters list={list} />}
      query={stores}
      errorTitle="Failed to fetch stores"
      loadingClassName="h-40 w-full"
      empty={{ icon: Warehouse, title: 'No stores found', description: list.q ? `Nothing matches "${list.q}".` : undefined }}
      overlays={
        canEdit && (
          <StoresBulkBar
            storeIds={[...selected].map(Number)}
            total={stores.data?.total ?? 0}
            onSelectAll={() =>
              void fetchStoreIds(filters).then(
                (r) => setSelected(new Set(r.ids)),
                (e) =>
                  notify({ title: 'Could not select every matching store', description: toApiError(e).message, variant: 'destructive' }),
              )
            }
            onClear={() => setSelected(new Set())}
            onDone={() => {
              setSelected(new Set());
              void stores.mutate();
            }}
          />
        )
      }
    >
      {stores.data && (
        <DataTable
          label="Stores"
          rows={stores.data.items}
          columns={columns}
          rowKey={(s) => s.id}
          sort={list.sort}
          onSortChange={list.setSort}
          selection={canEdit ? { selected, onChange: onSelect, rowLabel: (s) => s.name } : undefined}
          onRowOpen={(s) => navigate(`/admin/store/${s.id}`)}
          rowOpenLabel={(s) => `Open ${s.name}`}
          pagination={{ ...stores.data, onPage: list.setPage, label: 'stores', onPageSize: list.setPageSize, pageSizes: list.pageSizes }}
        />
      )}
    </ResourcePanel>
  );
}
