import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Pencil, Plus, Search, Store } from 'lucide-react';
import { adminBoardListSchema, adminOutletPageSchema, createOutletBodySchema, type AdminOutlet } from '@portal/contracts';
import { api, toApiError, useApi } from '@/lib/api';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge, EmptyState, Skeleton } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { Select } from '@/components/ui/select';
import { Table, Td, Th } from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';

type FormIn = z.input<typeof createOutletBodySchema>;
type FormOut = z.output<typeof createOutletBodySchema>;

/**
 * The Outlets tab (spec 002 §2, §5): outlet id, name, code, city, state, active, board name and store
 * names, searchable and paged; a create/edit dialog with the spec's rules (state upper-cased, 2 letters).
 */
export function OutletsTab() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), 300);
  const params = new URLSearchParams({ page: String(page), pageSize: '20' });
  if (q) params.set('search', q);
  const { data, error, isLoading, mutate } = useApi(`/admin/outlets?${params}`, adminOutletPageSchema, { keepPreviousData: true });
  const [dialog, setDialog] = useState<{ outlet?: AdminOutlet } | null>(null);
  return (
    <section aria-labelledby="outlets-title" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="outlets-title" className="text-lg font-semibold text-stone-900">
          Outlets
        </h2>
        <Button onClick={() => setDialog({})}>
          <Plus className="h-4 w-4" aria-hidden />
          Add Outlet
        </Button>
      </div>
      <div className="relative">
        <label htmlFor="outlets-search" className="sr-only">
          Search outlets
        </label>
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
        <Input
          id="outlets-search"
          type="search"
          className="pl-9"
          placeholder="Search by name, code or city"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      {error ? (
        <EmptyState
          title="Failed to load outlets"
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
          icon={<Store className="h-8 w-8" />}
          title="No outlets found"
          description={q ? `Nothing matches "${q}".` : 'Add the first outlet.'}
        />
      ) : (
        <>
          <Table aria-label="Outlets">
            <thead>
              <tr>
                <Th>ID</Th>
                <Th>Name</Th>
                <Th>Code</Th>
                <Th>City</Th>
                <Th>State</Th>
                <Th>Status</Th>
                <Th>Board</Th>
                <Th>Stores</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((o) => (
                <tr key={o.id}>
                  <Td className="tabular-nums">{o.id}</Td>
                  <Td className="font-medium">{o.name}</Td>
                  <Td className="font-mono text-xs">{o.outletCode}</Td>
                  <Td>{o.city ?? '—'}</Td>
                  <Td>{o.state ?? '—'}</Td>
                  <Td>{o.active ? <Badge variant="success">Active</Badge> : <Badge>Inactive</Badge>}</Td>
                  <Td>{o.boardName ?? '—'}</Td>
                  <Td className="max-w-xs text-xs text-stone-600">{o.storeNames.join(', ') || '—'}</Td>
                  <Td>
                    <Button variant="ghost" size="sm" onClick={() => setDialog({ outlet: o })} aria-label={`Edit ${o.name}`}>
                      <Pencil className="h-4 w-4" aria-hidden />
                      Edit
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label="outlets" />
        </>
      )}
      {dialog && (
        <OutletDialog
          outlet={dialog.outlet}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void mutate();
          }}
        />
      )}
    </section>
  );
}

function OutletDialog({ outlet, onClose, onSaved }: { outlet?: AdminOutlet; onClose: () => void; onSaved: () => void }) {
  const boards = useApi('/admin/boards', adminBoardListSchema);
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
      if (outlet) await api.patch(`/admin/outlets/${outlet.id}`, body);
      else await api.post('/admin/outlets', body);
      notify({ title: outlet ? 'Outlet updated' : 'Outlet created', description: `${body.name} (${body.outletCode})`, variant: 'success' });
      onSaved();
    } catch (e) {
      const err = toApiError(e);
      if (err.code === 'outlet_code_taken') setError('outletCode', { message: err.message });
      for (const f of ['name', 'outletCode', 'state', 'boardId'] as const) {
        const m = err.fieldError(f);
        if (m) setError(f, { message: m });
      }
      notify({ title: `Failed to ${outlet ? 'update' : 'create'} outlet: ${err.message}`, variant: 'destructive' });
    }
  });
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={outlet ? 'Edit Outlet' : 'Add Outlet'}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="outlet-form" loading={isSubmitting}>
            {isSubmitting ? 'Saving...' : outlet ? 'Update Outlet' : 'Create Outlet'}
          </Button>
        </>
      }
    >
      <form id="outlet-form" onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
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
      </form>
    </Dialog>
  );
}
