import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Plus, Warehouse } from 'lucide-react';
import { ADMIN_ORG_MESSAGES, PERMISSIONS, type AdminStore } from '@portal/contracts';
import { formatMoney } from '@/lib/format';
import { useSession } from '@/lib/session';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { DataTable, type Column } from '@/components/admin/data-table';
import { ResourcePanel, SearchField } from '@/components/admin/resource-panel';
import { Button } from '@/components/ui/button';
import { Badge, EmptyState } from '@/components/ui/feedback';
import { useAdminStores } from './api/stores';

const columns: Column<AdminStore>[] = [
  { header: 'Number', field: 'id', className: 'tabular-nums' },
  {
    header: 'Name',
    className: 'font-medium',
    cell: (s) => (
      <Link to={`/admin/store/${s.id}`} className="rounded text-brand-800 hover:underline" onClick={(e) => e.stopPropagation()}>
        {s.name}
      </Link>
    ),
  },
  { header: 'City', cell: (s) => `${s.city ?? '—'}${s.state ? `, ${s.state}` : ''}` },
  { header: 'Board', field: 'boardName' },
  { header: 'Delivery', cell: (s) => (s.deliveryEnabled ? formatMoney(s.deliveryCharge) : <span className="text-stone-500">Off</span>) },
  { header: 'Status', cell: (s) => (s.active ? <Badge variant="success">Active</Badge> : <Badge>Inactive</Badge>) },
];

/** The Stores tab (spec 002 §2): stores in scope, searchable; a row opens /admin/store/{id}; Add Store → /admin/store/new. */
export function StoresTab() {
  const { hasPermission } = useSession();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), 300);
  const { data, error, isLoading, mutate } = useAdminStores({ page, search: q });
  if (error?.status === 403) return <EmptyState title="Access Denied" description={ADMIN_ORG_MESSAGES.storeViewDenied} />;
  return (
    <ResourcePanel
      id="stores"
      title="Stores"
      actions={
        hasPermission(PERMISSIONS.storesSuperAdmin) && (
          <Button onClick={() => navigate('/admin/store/new')}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Store
          </Button>
        )
      }
      toolbar={
        <SearchField
          id="stores-search"
          label="Search stores"
          placeholder="Search by name, code, city or number"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
      }
      error={error}
      errorTitle="Failed to fetch stores"
      onRetry={() => void mutate()}
      loading={isLoading && !data}
      loadingClassName="h-40 w-full"
      isEmpty={!data?.items.length}
      empty={
        <EmptyState
          icon={<Warehouse className="h-8 w-8" />}
          title="No stores found"
          description={q ? `Nothing matches "${q}".` : undefined}
        />
      }
    >
      {data && (
        <DataTable
          label="Stores"
          rows={data.items}
          columns={columns}
          rowKey={(s) => s.id}
          rowProps={(s) => ({ className: 'cursor-pointer hover:bg-stone-50', onClick: () => navigate(`/admin/store/${s.id}`) })}
          pagination={{ page: data.page, pageSize: data.pageSize, total: data.total, onPage: setPage, label: 'stores' }}
        />
      )}
    </ResourcePanel>
  );
}
