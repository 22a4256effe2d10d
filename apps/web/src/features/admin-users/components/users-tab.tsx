import { useEffect, useRef, useState, type Key, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Download, Users } from 'lucide-react';
import { ADMIN_USER_MESSAGES as M, adminOutletPageSchema, adminStorePageSchema, type AdminUserListRow } from '@portal/contracts';
import { AsyncFilter } from '@/components/admin/async-filter';
import { DataTable } from '@/components/admin/data-table';
import { SearchField } from '@/components/admin/resource-panel';
import { usePagedSearch, type PagedSearch } from '@/components/admin/use-paged-search';
import { Button } from '@/components/ui/button';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { Label } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { downloadUsersCsv, fetchUserIds, useAdminUsersPage, useRoleChoices } from '../api/admin-users';
import { userColumns } from './user-columns';
import { UsersBulkBar } from './users-bulk';
import { formatCount } from '@/lib/format';

const NOT_EDITABLE = "You don't have permission to edit this user";
const FILTERS = ['role', 'status', 'outletId', 'storeId', '_outlet', '_store'] as const;
type UsersList = PagedSearch<(typeof FILTERS)[number]>;

/** The users list's filters (ARCHITECTURE §5): role, status (invited: the pending invitations), outlet, store. */
function UserFilters({ list }: { list: UsersList }) {
  const roles = useRoleChoices().data?.items ?? [];
  const f = list.filters;
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
      <SearchField
        id="admin-users-search"
        label="Search users"
        placeholder="Search by name or email"
        className="relative self-end"
        {...list.searchProps}
      />
      <div>
        <Label htmlFor="users-role" className="mb-1 block text-xs font-medium text-stone-600">
          Role
        </Label>
        <Select id="users-role" value={f.role} onChange={(e) => list.setFilter('role', e.target.value)}>
          <option value="">Any role</option>
          {roles.map((r) => (
            <option key={r.id} value={r.code}>
              {r.name ?? r.code}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <Label htmlFor="users-status" className="mb-1 block text-xs font-medium text-stone-600">
          Status
        </Label>
        <Select id="users-status" value={f.status} onChange={(e) => list.setFilter('status', e.target.value)}>
          <option value="">Any status</option>
          <option value="active">Active</option>
          <option value="inactive">Inactive</option>
          <option value="invited">Invited (pending)</option>
        </Select>
      </div>
      <AsyncFilter
        label="Outlet"
        placeholder="Search outlets"
        value={f.outletId}
        valueLabel={f._outlet}
        onChange={(id, label) => list.setFilters({ outletId: id, _outlet: label })}
        path={(s) => `/admin/outlets?pageSize=8&search=${encodeURIComponent(s)}`}
        schema={adminOutletPageSchema}
        toChoices={(d) => d.items.map((o) => ({ id: String(o.id), label: `${o.name} (${o.outletCode})` }))}
      />
      <AsyncFilter
        label="Store"
        placeholder="Search stores"
        value={f.storeId}
        valueLabel={f._store}
        onChange={(id, label) => list.setFilters({ storeId: id, _store: label })}
        path={(s) => `/admin/stores?pageSize=8&search=${encodeURIComponent(s)}`}
        schema={adminStorePageSchema}
        toChoices={(d) => d.items.map((s) => ({ id: String(s.id), label: `${s.name} #${s.id}` }))}
      />
    </div>
  );
}

/** The error state with the spec's texts (spec 002 §8): "Error loading users: …", Try again, Login Again. */
function LoadError({ status, message, retry }: { status?: number; message: string; retry: () => void }) {
  const navigate = useNavigate();
  const expired = status === 401;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      <p>Error loading users: {expired ? M.sessionExpired : message}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        {!expired && (
          <Button variant="outline" size="sm" onClick={retry}>
            Try again
          </Button>
        )}
        <Button size="sm" onClick={() => navigate('/auth')}>
          Login Again
        </Button>
      </div>
    </div>
  );
}

/**
 * The Users tab (spec 002 §2 Users, §8, §9; ARCHITECTURE §5 "Administration at scale"): the caller's scoped users
 * (and, with status Invited, the pending invitations), paged on the server (25/50/100, page jump), sorted by
 * name, email, last sign-in or status, filtered by search, role, status, outlet and store, all kept in the URL so Back
 * from Edit User returns here; a row opens Edit User when canEdit (click or Enter anywhere on it). Rows are
 * selected for the bulk actions (users-bulk.tsx); Export CSV downloads the filtered list. `actions` sits in
 * the header (Invite), `children` below the list (outlet requests, pending invitations).
 */
export function UsersTab({ actions, children }: { actions?: ReactNode; children?: ReactNode }) {
  const list = usePagedSearch({ filters: FILTERS, defaultSort: { key: 'name', dir: 'asc' } });
  const { data, error, isLoading, mutate } = useAdminUsersPage(list.query());
  const navigate = useNavigate();
  const [selected, setSelected] = useState<Set<Key>>(new Set());
  const [exporting, setExporting] = useState(false);
  const names = useRef(new Map<string, string>());
  const filters = list.filterQuery();
  useEffect(() => setSelected(new Set()), [filters]);
  for (const u of data?.items ?? []) names.current.set(u.id, u.email);

  const open = (u: AdminUserListRow) => {
    if (u.canEdit) navigate(`/admin/users/${u.id}`);
    else
      notify({ title: u.status === 'invited' ? 'A pending invitation: resend or revoke it below' : NOT_EDITABLE, variant: 'destructive' });
  };
  const onSelect = (keys: Key[], checked: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const k of keys)
        if (checked) next.add(k);
        else next.delete(k);
      return next;
    });
  const selectAll = async () => {
    try {
      const r = await fetchUserIds(filters);
      setSelected(new Set(r.ids));
      if (r.truncated) notify({ title: `Selected the first ${formatCount(r.ids.length)} of ${formatCount(r.total)}` });
    } catch (e) {
      notify({ title: 'Could not select every matching user', description: toApiError(e).message, variant: 'destructive' });
    }
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadUsersCsv(filters);
    } catch (e) {
      notify({ title: 'The export failed', description: toApiError(e).message, variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  let body: ReactNode;
  if (error) body = <LoadError status={error.status} message={error.message} retry={() => void mutate()} />;
  else if (isLoading && !data) body = <Skeleton className="h-64 w-full" />;
  else if (!data?.items.length)
    body = (
      <EmptyState
        icon={<Users className="h-8 w-8" />}
        title="No users found"
        description={list.q ? `Nothing matches “${list.q}”.` : data?.meta.scopeDescription}
      />
    );
  else
    body = (
      <DataTable
        label="Users"
        rows={data.items}
        columns={userColumns}
        rowKey={(u) => u.id}
        sort={list.sort}
        onSortChange={list.setSort}
        selection={{ selected, onChange: onSelect, rowLabel: (u) => u.fullName ?? u.email }}
        onRowOpen={open}
        rowOpenLabel={(u) => `Open ${u.fullName ?? u.email}`}
        pagination={{ ...data, onPage: list.setPage, label: 'users', onPageSize: list.setPageSize, pageSizes: list.pageSizes }}
      />
    );

  return (
    <section aria-labelledby="admin-users-title" className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="admin-users-title" className="text-lg font-semibold text-stone-900">
            Users
          </h2>
          {data && (
            <p className="text-sm text-stone-500">
              {data.meta.scopeDescription} · {formatCount(data.total)} {data.total === 1 ? 'match' : 'matches'}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => void exportCsv()} loading={exporting}>
            <Download className="h-4 w-4" aria-hidden />
            Export CSV
          </Button>
          {actions}
        </div>
      </div>
      <UserFilters list={list} />
      {body}
      <UsersBulkBar
        selectedIds={[...selected].map(String)}
        total={data?.total ?? 0}
        onSelectAll={() => void selectAll()}
        onClear={() => setSelected(new Set())}
        invited={list.filters.status === 'invited'}
        nameOf={(id) => names.current.get(id) ?? id}
        onDone={() => {
          setSelected(new Set());
          void mutate();
        }}
      />
      {children}
    </section>
  );
}
