import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Package, Pencil, Search } from 'lucide-react';
import {
  ADMIN_ITEMS_PAGE_SIZE,
  ADMIN_ORG_MESSAGES,
  PERMISSIONS,
  adminItemPageSchema,
  updateItemBodySchema,
  type AdminItem,
} from '@portal/contracts';
import { api, toApiError, useApi } from '@/lib/api';
import { useSession } from '@/lib/session';
import { formatMoney } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Table, Td, Th } from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';

type FormIn = z.input<typeof updateItemBodySchema>;
type FormOut = z.output<typeof updateItemBodySchema>;

/**
 * The Items tab (spec 002 §2, §3, §9): the board's items 20 per page, searched by name or code (300 ms
 * debounce), filtered by 'available online'; the switch applies at once and reverts on failure; Edit
 * opens a dialog for name, category, price and availability (bcc.items.update / bcc.item.update).
 */
export function ItemsTab() {
  const { hasAnyPermission } = useSession();
  const canEdit = hasAnyPermission([PERMISSIONS.itemsUpdate, PERMISSIONS.itemUpdate]);
  const [search, setSearch] = useState('');
  const [active, setActive] = useState<'' | 'true' | 'false'>('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), 300);
  const params = new URLSearchParams({ page: String(page), pageSize: String(ADMIN_ITEMS_PAGE_SIZE) });
  if (q) params.set('search', q);
  if (active) params.set('active', active);
  const { data, error, isLoading, mutate } = useApi(`/admin/items?${params}`, adminItemPageSchema, { keepPreviousData: true });
  const [editing, setEditing] = useState<AdminItem | null>(null);

  const toggle = async (item: AdminItem, next: boolean) => {
    const patch = (value: boolean) =>
      mutate((d) => d && { ...d, items: d.items.map((i) => (i.id === item.id ? { ...i, active: value } : i)) }, { revalidate: false });
    await patch(next);
    try {
      await api.patch(`/admin/items/${item.id}`, { active: next });
      notify({ title: next ? 'Item available online' : 'Item hidden from the shop', description: item.name, variant: 'success' });
    } catch (e) {
      await patch(!next);
      notify({ title: 'Failed to update item', description: toApiError(e).message, variant: 'destructive' });
    }
  };

  if (error?.status === 403)
    return <EmptyState icon={<Package className="h-8 w-8" />} title="Access Denied" description={ADMIN_ORG_MESSAGES.itemsViewDenied} />;
  return (
    <section aria-labelledby="items-title" className="space-y-3">
      <h2 id="items-title" className="text-lg font-semibold text-stone-900">
        Items
      </h2>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="relative flex-1">
          <label htmlFor="items-search" className="sr-only">
            Search items by name or code
          </label>
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
          <Input
            id="items-search"
            type="search"
            className="pl-9"
            placeholder="Search by name or code"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </div>
        <div className="sm:w-56">
          <label htmlFor="items-active" className="sr-only">
            Availability
          </label>
          <Select
            id="items-active"
            value={active}
            onChange={(e) => {
              setActive(e.target.value as typeof active);
              setPage(1);
            }}
          >
            <option value="">All items</option>
            <option value="true">Available online</option>
            <option value="false">Not available online</option>
          </Select>
        </div>
      </div>
      {error && error.status !== 403 ? (
        <EmptyState
          title="Failed to load items"
          description={error.message}
          action={
            <Button variant="outline" onClick={() => mutate()}>
              Try again
            </Button>
          }
        />
      ) : isLoading && !data ? (
        <div className="space-y-2">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : !data?.items.length ? (
        <EmptyState
          icon={<Package className="h-8 w-8" />}
          title="No items found"
          description={q ? `Nothing matches "${q}".` : 'The catalog is empty.'}
        />
      ) : (
        <>
          <Table aria-label="Items">
            <thead>
              <tr>
                <Th>Code</Th>
                <Th>Name</Th>
                <Th>Category</Th>
                <Th>Size</Th>
                <Th className="text-right">Price</Th>
                <Th>Available online</Th>
                {canEdit && (
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.items.map((item) => (
                <tr key={item.id}>
                  <Td className="font-mono text-xs">{item.code}</Td>
                  <Td className="font-medium">{item.name}</Td>
                  <Td>{item.category ?? 'Uncategorized'}</Td>
                  <Td>{item.bottleSize ?? 'Unknown Size'}</Td>
                  <Td className="text-right tabular-nums">{formatMoney(item.retail)}</Td>
                  <Td>
                    <Switch
                      checked={item.active}
                      disabled={!canEdit}
                      onCheckedChange={(v) => void toggle(item, v)}
                      aria-label={`Available online: ${item.name}`}
                    />
                  </Td>
                  {canEdit && (
                    <Td>
                      <Button variant="ghost" size="sm" onClick={() => setEditing(item)} aria-label={`Edit ${item.name}`}>
                        <Pencil className="h-4 w-4" aria-hidden />
                        Edit
                      </Button>
                    </Td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label="items" />
        </>
      )}
      {editing && (
        <ItemDialog
          item={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void mutate();
          }}
        />
      )}
    </section>
  );
}

function ItemDialog({ item, onClose, onSaved }: { item: AdminItem; onClose: () => void; onSaved: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(updateItemBodySchema),
    defaultValues: { name: item.name, category: item.category ?? '', retail: item.retail, active: item.active },
  });
  const submit = handleSubmit(async (body) => {
    try {
      await api.patch(`/admin/items/${item.id}`, body);
      notify({
        title: 'Item updated',
        description: `${body.name ?? item.name}: ${formatMoney(body.retail ?? item.retail)}`,
        variant: 'success',
      });
      onSaved();
    } catch (e) {
      const err = toApiError(e);
      for (const f of ['name', 'category', 'retail'] as const) {
        const m = err.fieldError(f);
        if (m) setError(f, { message: m });
      }
      notify({ title: 'Failed to update item', description: err.message, variant: 'destructive' });
    }
  });
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title="Edit Item"
      description={`Item ${item.code}`}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="item-form" loading={isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Save'}
          </Button>
        </>
      }
    >
      <form id="item-form" onSubmit={submit} noValidate className="space-y-4">
        <Field id="item-name" label="Name *" error={errors.name?.message}>
          <Input {...describedBy('item-name', errors.name?.message)} {...register('name')} />
        </Field>
        <Field id="item-category" label="Category" error={errors.category?.message}>
          <Input {...describedBy('item-category', errors.category?.message)} {...register('category')} />
        </Field>
        <Field id="item-retail" label="Price (USD) *" error={errors.retail?.message}>
          <Input {...describedBy('item-retail', errors.retail?.message)} inputMode="decimal" {...register('retail')} />
        </Field>
        <label htmlFor="item-active" className="flex items-center gap-2 text-sm text-stone-800">
          <input id="item-active" type="checkbox" className="h-4 w-4 accent-brand-700" {...register('active')} /> Available online
        </label>
      </form>
    </Dialog>
  );
}
