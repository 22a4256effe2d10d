import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Pencil, Store } from 'lucide-react';
import { createOutletBodySchema, type AdminOutlet } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { DataTable, RowAction, actionsHeader, type Column } from '@/components/admin/data-table';
import { applyFieldErrors } from '@/components/admin/form-errors';
import { FormDialog } from '@/components/admin/form-dialog';
import { useEditDialog } from '@/components/admin/use-edit-dialog';
import { ResourcePanel, SearchField } from '@/components/admin/resource-panel';
import { usePagedSearch } from '@/components/admin/use-paged-search';
import { Badge } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { notify } from '@/components/ui/toaster';
import { saveOutlet, useAdminOutlets, useOutletBoardOptions } from './api/outlets';

type FormIn = z.input<typeof createOutletBodySchema>;
type FormOut = z.output<typeof createOutletBodySchema>;

/**
 * The Outlets tab (spec 002 §2, §5): outlet id, name, code, city, state, active, board name and store
 * names, searchable and paged; a create/edit dialog with the spec's rules (state upper-cased, 2 letters).
 */
export function OutletsTab() {
  const list = usePagedSearch({ filters: ['active', 'boardId'] as const, defaultSort: { key: 'name', dir: 'asc' } });
  const boards = useOutletBoardOptions().data?.items ?? [];
  const { q, searchProps } = list;
  const outlets = useAdminOutlets(list.query());
  const dialog = useEditDialog<AdminOutlet>(outlets.mutate);
  const columns: Column<AdminOutlet>[] = [
    { header: 'ID', field: 'id', sortKey: 'id', className: 'tabular-nums' },
    { header: 'Name', field: 'name', sortKey: 'name', className: 'font-medium' },
    { header: 'Code', field: 'outletCode', sortKey: 'code', className: 'font-mono text-xs' },
    { header: 'City', sortKey: 'city', cell: (o) => o.city ?? '—' },
    { header: 'State', sortKey: 'state', cell: (o) => o.state ?? '—' },
    { header: 'Status', sortKey: 'active', cell: (o) => (o.active ? <Badge variant="success">Active</Badge> : <Badge>Inactive</Badge>) },
    { header: 'Board', sortKey: 'board', cell: (o) => o.boardName ?? '—' },
    { header: 'Stores', cell: (o) => o.storeNames.join(', ') || '—', className: 'max-w-xs text-xs text-stone-600' },
    {
      header: actionsHeader,
      cell: (o) => <RowAction icon={Pencil} text="Edit" label={`Edit ${o.name}`} onClick={() => dialog.open(o)} />,
    },
  ];
  return (
    <ResourcePanel
      id="outlets"
      title="Outlets"
      addLabel="Add Outlet"
      onAdd={() => dialog.open()}
      toolbar={
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <SearchField
            id="outlets-search"
            className="relative flex-1"
            label="Search outlets"
            placeholder="Search by name, code or city"
            {...searchProps}
          />
          <div className="sm:w-48">
            <label htmlFor="outlets-active" className="sr-only">
              Status
            </label>
            <Select id="outlets-active" value={list.filters.active} onChange={(e) => list.setFilter('active', e.target.value)}>
              <option value="">Active and inactive</option>
              <option value="true">Active</option>
              <option value="false">Inactive</option>
            </Select>
          </div>
          <div className="sm:w-48">
            <label htmlFor="outlets-board" className="sr-only">
              Board
            </label>
            <Select id="outlets-board" value={list.filters.boardId} onChange={(e) => list.setFilter('boardId', e.target.value)}>
              <option value="">Every board</option>
              {boards.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </Select>
          </div>
        </div>
      }
      query={outlets}
      errorTitle="Failed to load outlets"
      loadingClassName="h-40 w-full"
      empty={{ icon: Store, title: 'No outlets found', description: q ? `Nothing matches "${q}".` : 'Add the first outlet.' }}
      overlays={dialog.isOpen && <OutletDialog outlet={dialog.target} onClose={dialog.close} onSaved={dialog.saved} />}
    >
      {outlets.data && (
        <DataTable
          label="Outlets"
          rows={outlets.data.items}
          columns={columns}
          rowKey={(o) => o.id}
          sort={list.sort}
          onSortChange={list.setSort}
          pagination={{ ...outlets.data, onPage: list.setPage, label: 'outlets', onPageSize: list.setPageSize, pageSizes: list.pageSizes }}
        />
      )}
    </ResourcePanel>
  );
}

function OutletDialog({ outlet, onClose, onSaved }: { outlet?: AdminOutlet; onClose: () => void; onSaved: () => void }) {
  const boards = useOutletBoardOptions();
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createOutletBodySchema),
    defaultValues: {
      name: outlet?.name ?? '',
      outletCode: outlet?.outletCode ?? '',
      city: outlet?.city ?? '',
      state: outlet?.state ?? '',
      active: outlet?.active ?? true,
      boardId: outlet?.boardId ?? undefined,
    },
  });
  const submit = handleSubmit(async (body) => {
    try {
      await saveOutlet(outlet?.id ?? null, body);
      notify({ title: outlet ? 'Outlet updated' : 'Outlet created', description: `${body.name} (${body.outletCode})`, variant: 'success' });
      onSaved();
    } catch (e) {
      const err = toApiError(e);
      if (err.code === 'outlet_code_taken') setError('outletCode', { message: err.message });
      applyFieldErrors(err, ['name', 'outletCode', 'state', 'boardId'], setError);
      notify({ title: `Failed to ${outlet ? 'update' : 'create'} outlet: ${err.message}`, variant: 'destructive' });
    }
  });
  return (
    <FormDialog
      title={outlet ? 'Edit Outlet' : 'Add Outlet'}
      formId="outlet-form"
      onSubmit={submit}
      onClose={onClose}
      busy={isSubmitting}
      submitLabel={outlet ? 'Update Outlet' : 'Create Outlet'}
      formClassName="grid gap-4 sm:grid-cols-2"
    >
      <Field id="outlet-name" label="Outlet name *" error={errors.name?.message} className="sm:col-span-2">
        <Input {...describedBy('outlet-name', errors.name?.message)} {...register('name')} />
      </Field>
      <Field id="outlet-code" label="Outlet code *" error={errors.outletCode?.message}>
        <Input {...describedBy('outlet-code', errors.outletCode?.message)} {...register('outletCode')} />
      </Field>
      <Field id="outlet-board" label="Board *" error={errors.boardId?.message}>
        <Controller
          control={control}
          name="boardId"
          render={({ field }) => (
            <Select
              {...describedBy('outlet-board', errors.boardId?.message)}
              value={field.value ?? ''}
              onChange={(e) => field.onChange(e.target.value ? Number(e.target.value) : undefined)}
              onBlur={field.onBlur}
            >
              <option value="">Select a board</option>
              {boards.data?.items.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </Select>
          )}
        />
      </Field>
      <Field id="outlet-city" label="City" error={errors.city?.message}>
        <Input {...describedBy('outlet-city', errors.city?.message)} {...register('city')} />
      </Field>
      <Field id="outlet-state" label="State" error={errors.state?.message} hint="Two letters, e.g. NY, CA">
        <Controller
          control={control}
          name="state"
          render={({ field }) => (
            <Input
              {...describedBy('outlet-state', errors.state?.message, true)}
              maxLength={2}
              autoCapitalize="characters"
              value={field.value ?? ''}
              onBlur={field.onBlur}
              onChange={(e) => field.onChange(e.target.value.toUpperCase().slice(0, 2))}
            />
          )}
        />
      </Field>
      <label htmlFor="outlet-active" className="flex items-center gap-2 text-sm text-stone-800 sm:col-span-2">
        <input id="outlet-active" type="checkbox" className="h-4 w-4 accent-brand-700" {...register('active')} /> Active
      </label>
    </FormDialog>
  );
}
