import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Plus, Search, Warehouse } from 'lucide-react';
import { ADMIN_ORG_MESSAGES, PERMISSIONS, adminStorePageSchema } from '@portal/contracts';
import { useApi } from '@/lib/api';
import { formatMoney } from '@/lib/format';
import { useSession } from '@/lib/session';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { Button } from '@/components/ui/button';
import { Badge, EmptyState, Skeleton } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { Table, Td, Th } from '@/components/ui/table';

/** The Stores tab (spec 002 §2): stores in scope, searchable; a row opens /admin/store/{id}; Add Store → /admin/store/new. */
export function StoresTab() {
  const { hasPermission } = useSession();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), 300);
  const params = new URLSearchParams({ page: String(page), pageSize: '20' });
  if (q) params.set('search', q);
  const { data, error, isLoading, mutate } = useApi(`/admin/stores?${params}`, adminStorePageSchema, { keepPreviousData: true });
  if (error?.status === 403) return <EmptyState title="Access Denied" description={ADMIN_ORG_MESSAGES.storeViewDenied} />;
  return (
    <section aria-labelledby="stores-title" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="stores-title" className="text-lg font-semibold text-stone-900">
          Stores
        </h2>
        {hasPermission(PERMISSIONS.storesSuperAdmin) && (
          <Button onClick={() => navigate('/admin/store/new')}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Store
          </Button>
        )}
      </div>
      <div className="relative">
        <label htmlFor="stores-search" className="sr-only">
          Search stores
        </label>
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
        <Input
          id="stores-search"
          type="search"
          className="pl-9"
          placeholder="Search by name, code, city or number"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      {error ? (
        <EmptyState
          title="Failed to fetch stores"
          description={error.message}
          action={
            <Button variant="outline" onClick={() => mutate()}>
              Try again
            </Button>
          }
        />
      ) : isLoading && !data ? (
        <Skeleton className="h-40 w-full" />
      ) : !data?.items.length ? (
        <EmptyState
          icon={<Warehouse className="h-8 w-8" />}
          title="No stores found"
          description={q ? `Nothing matches "${q}".` : undefined}
        />
      ) : (
        <>
          <Table aria-label="Stores">
            <thead>
              <tr>
                <Th>Number</Th>
                <Th>Name</Th>
                <Th>City</Th>
                <Th>Board</Th>
                <Th>Delivery</Th>
                <Th>Status</Th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((s) => (
                <tr key={s.id} className="cursor-pointer hover:bg-stone-50" onClick={() => navigate(`/admin/store/${s.id}`)}>
                  <Td className="tabular-nums">{s.id}</Td>
                  <Td className="font-medium">
                    <Link
                      to={`/admin/store/${s.id}`}
                      className="rounded text-brand-800 hover:underline"
                      onClick={(e) => e.stopPropagation()}
                    >
                      {s.name}
                    </Link>
                  </Td>
                  <Td>
                    {s.city ?? '—'}
                    {s.state ? `, ${s.state}` : ''}
                  </Td>
                  <Td>{s.boardName}</Td>
                  <Td>{s.deliveryEnabled ? formatMoney(s.deliveryCharge) : <span className="text-stone-500">Off</span>}</Td>
                  <Td>{s.active ? <Badge variant="success">Active</Badge> : <Badge>Inactive</Badge>}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label="stores" />
        </>
      )}
    </section>
  );
}
