import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Package, Pencil } from 'lucide-react';
import { ADMIN_ITEMS_PAGE_SIZE, ADMIN_ORG_MESSAGES, PERMISSIONS, updateItemBodySchema, type AdminItem } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { useSession } from '@/lib/session';
import { formatMoney } from '@/lib/format';
import { DataTable, RowAction, actionsHeader, type Column } from '@/components/admin/data-table';
import { applyFieldErrors } from '@/components/admin/form-errors';
import { FormDialog } from '@/components/admin/form-dialog';
import { useEditDialog } from '@/components/admin/use-edit-dialog';
import { ResourcePanel, SearchField } from '@/components/admin/resource-panel';
import { usePagedSearch } from '@/components/admin/use-paged-search';
import { EmptyState, Skeleton } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { notify } from '@/components/ui/toaster';
import { updateItem, useAdminItems } from './api/items';
import { QuantityRuleFields, parseRuleTexts, useRuleTexts } from './quantity-rule-fields';

/** The bottle sizes the size filter offers (mL). */
const BOTTLE_SIZES_ML = [50, 100, 200, 375, 750, 1000, 1750];

/**
 * The Items tab (spec 002 §2, §3, §9): the board's items 20 per page, searched by name or code (300 ms
 * debounce), filtered by 'available online'; the switch applies at once and reverts on failure; Edit
 * opens a dialog for name, category, price and availability (bcc.items.update / bcc.item.update).
 */
export function ItemsTab() {
  const { hasAnyPermission } = useSession();
  const canEdit = hasAnyPermission([PERMISSIONS.itemsUpdate, PERMISSIONS.itemUpdate]);
  const list = usePagedSearch({ filters: ['active', 'bottleSizeMl'] as const, defaultPageSize: ADMIN_ITEMS_PAGE_SIZE });
  const { q, searchProps } = list;
  const items = useAdminItems(list.query());
  const editing = useEditDialog<AdminItem>(items.mutate);

  const toggle = async (item: AdminItem, next: boolean) => {
    const patch = (value: boolean) =>
      items.mutate((d) => d && { ...d, items: d.items.map((i) => (i.id === item.id ? { ...i, active: value } : i)) }, {
        revalidate: false,
      });
    await patch(next);
    try {
      await updateItem(item.id, { active: next });
      notify({ title: next ? 'Item available online' : 'Item hidden from the shop', description: item.name, variant: 'success' });
    } catch (e) {
      await patch(!next);
      notify({ title: 'Failed to update item', description: toApiError(e).message, variant: 'destructive' });
    }
  };
  const columns: Column<AdminItem>[] = [
    { header: 'Code', field: 'code', sortKey: 'code', className: 'font-mono text-xs' },
    { header: 'Name', field: 'name', sortKey: 'name', className: 'font-medium' },
    { header: 'Category', sortKey: 'category', cell: (i) => i.category ?? 'Uncategorized' },
    { header: 'Size', sortKey: 'size', cell: (i) => i.bottleSize ?? 'Unknown Size' },
    {
      header: 'Price',
      sortKey: 'retail',
      cell: (i) => formatMoney(i.retail),
      className: 'text-right tabular-nums',
      headerClassName: 'text-right',
    },
    {
      header: 'Available online',
      cell: (i) => (
        <Switch
          checked={i.active}
          disabled={!canEdit}
          onCheckedChange={(v) => void toggle(i, v)}
          aria-label={`Available online: ${i.name}`}
        />
      ),
    },
  ];
  if (canEdit)
    columns.push({
      header: actionsHeader,
      cell: (i) => <RowAction icon={Pencil} text="Edit" label={`Edit ${i.name}`} onClick={() => editing.open(i)} />,
    });

  if (items.error?.status === 403)
    return <EmptyState icon={<Package className="h-8 w-8" />} title="Access Denied" description={ADMIN_ORG_MESSAGES.itemsViewDenied} />;
  return (
    <ResourcePanel
      id="items"
      title="Items"
      toolbar={
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <SearchField
            id="items-search"
            className="relative flex-1"
            label="Search items by name or code"
            placeholder="Search by name or code"
            {...searchProps}
          />
          <div className="sm:w-56">
            <label htmlFor="items-active" className="sr-only">
              Availability
            </label>
            <Select id="items-active" value={list.filters.active} onChange={(e) => list.setFilter('active', e.target.value)}>
              <option value="">All items</option>
              <option value="true">Available online</option>
              <option value="false">Not available online</option>
            </Select>
          </div>
          <div className="sm:w-44">
            <label htmlFor="items-size" className="sr-only">
              Bottle size
            </label>
            <Select id="items-size" value={list.filters.bottleSizeMl} onChange={(e) => list.setFilter('bottleSizeMl', e.target.value)}>
              <option value="">All sizes</option>
              {BOTTLE_SIZES_ML.map((ml) => (
                <option key={ml} value={ml}>
                  {ml >= 1000 ? `${ml / 1000} L` : `${ml} mL`}
                </option>
              ))}
            </Select>
          </div>
        </div>
      }
      query={items}
      errorTitle="Failed to load items"
      loadingFallback={
        <div className="space-y-2">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      }
      empty={{ icon: Package, title: 'No items found', description: q ? `Nothing matches "${q}".` : 'The catalog is empty.' }}
      overlays={editing.target && <ItemDialog item={editing.target} onClose={editing.close} onSaved={editing.saved} />}
    >
      {items.data && (
        <DataTable
          label="Items"
          rows={items.data.items}
          columns={columns}
          rowKey={(i) => i.id}
          sort={list.sort}
          onSortChange={list.setSort}
          pagination={{ ...items.data, onPage: list.setPage, label: 'items', onPageSize: list.setPageSize, pageSizes: list.pageSizes }}
        />
      )}
    </ResourcePanel>
  );
}

function ItemDialog({ item, onClose, onSaved }: { item: AdminItem; onClose: () => void; onSaved: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof updateItemBodySchema>, unknown, z.output<typeof updateItemBodySchema>>({
    resolver: zodResolver(updateItemBodySchema),
    defaultValues: { name: item.name, category: item.category ?? '', retail: item.retail, active: item.active },
  });
  const rule = useRuleTexts(item);
  const submit = handleSubmit(async (body) => {
    const parsedRule = parseRuleTexts(rule.texts);
    rule.setErrors(parsedRule.errors);
    if (Object.keys(parsedRule.errors).length) return;
    try {
      await updateItem(item.id, rule.changed ? { ...body, quantityRule: parsedRule.rule } : body);
      notify({
        title: 'Item updated',
        description: `${body.name ?? item.name}: ${formatMoney(body.retail ?? item.retail)}`,
        variant: 'success',
      });
      onSaved();
    } catch (e) {
      const err = toApiError(e);
      applyFieldErrors(err, ['name', 'category', 'retail'], setError);
      notify({ title: 'Failed to update item', description: err.message, variant: 'destructive' });
    }
  });
  return (
    <FormDialog
      title="Edit Item"
      description={`Item ${item.code}`}
      formId="item-form"
      onSubmit={submit}
      onClose={onClose}
      busy={isSubmitting}
    >
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
      <QuantityRuleFields
        value={rule.texts}
        onChange={rule.setTexts}
        errors={rule.errors}
        bottlesPerCase={'bottlesPerCase' in item ? (item.bottlesPerCase as number | null) : null}
      />
    </FormDialog>
  );
}
