import { Link, useNavigate } from 'react-router-dom';
import { Warehouse } from 'lucide-react';
import { ADMIN_ORG_MESSAGES, PERMISSIONS, type AdminStore } from '@portal/contracts';
import { formatMoney } from '@/lib/format';
import { useSession } from '@/lib/session';
import { DataTable, type Column } from '@/components/admin/data-table';
import { ResourcePanel, SearchField } from '@/components/admin/resource-panel';
import { usePagedSearch } from '@/components/admin/use-paged-search';
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
  const { q, page, setPage, searchProps } = usePagedSearch();
  const stores = useAdminStores({ page, search: q });
  if (stores.error?.status === 403) return <EmptyState title="Access Denied" description={ADMIN_ORG_MESSAGES.storeViewDenied} />;
  return (
    <ResourcePanel
      id="stores"
      title="Stores"
      addLabel={hasPermission(PERMISSIONS.storesSuperAdmin) ? 'Add Store' : undefined}
      onAdd={() => navigate('/admin/store/new')}
      toolbar={<SearchField id="stores-search" label="Search stores" placeholder="Search by name, code, city or number" {...searchProps} />}
      query={stores}
      errorTitle="Failed to fetch stores"
      loadingClassName="h-40 w-full"
      empty={{ icon: Warehouse, title: 'No stores found', description: q ? `Nothing matches "${q}".` : undefined }}
    >
      {stores.data && (
        <DataTable
          label="Stores"
          rows={stores.data.items}
          columns={columns}
          rowKey={(s) => s.id}
          rowProps={(s) => ({ className: 'cursor-pointer hover:bg-stone-50', onClick: () => navigate(`/admin/store/${s.id}`) })}
          pagination={{ ...stores.data, onPage: setPage, label: 'stores' }}
        />
      )}
    </ResourcePanel>
  );
}
