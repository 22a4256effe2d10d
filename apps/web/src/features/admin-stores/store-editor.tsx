import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import type { z } from 'zod';
import { AlertTriangle, ArrowLeft, Lock, Plus, Search, Trash2 } from 'lucide-react';
import {
  ADMIN_ORG_MESSAGES,
  PERMISSIONS,
  adminBoardListSchema,
  adminOutletPageSchema,
  adminStoreSchema,
  createStoreBodySchema,
  storeOutletListSchema,
  type AdminStore,
} from '@portal/contracts';
import { api, toApiError, useApi } from '@/lib/api';
import { useSession } from '@/lib/session';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState, PageSpinner } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Table, Td, Th } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { notify } from '@/components/ui/toaster';
import { blurDeliveryCharge, typeDeliveryCharge } from './delivery-charge';

const storeFormSchema = createStoreBodySchema.omit({ warehouseId: true });
type FormIn = z.input<typeof storeFormSchema>;
type FormOut = z.output<typeof storeFormSchema>;
const M = ADMIN_ORG_MESSAGES;

/** Spec 002 §4: the store-save toast is dismissed after 3 s. */
const SAVE_TOAST_MS = 3000;

const toForm = (s?: AdminStore): FormIn => ({
  name: s?.name ?? '',
  warehouseCode: s?.warehouseCode ?? '',
  boardId: s?.boardId as number,
  address: s?.address ?? '',
  city: s?.city ?? '',
  state: s?.state ?? '',
  zipCode: s?.zipCode ?? '',
  phone: s?.phone ?? '',
  latitude: s?.latitude ?? '',
  longitude: s?.longitude ?? '',
  active: s?.active ?? true,
  deliveryEnabled: s?.deliveryEnabled ?? false,
  deliveryCharge: s?.deliveryCharge ?? '0.00',
  orderconfCcemails: s?.orderconfCcemails ?? '',
});

/**
 * The store editor at /admin/store/{id} and /admin/store/new (spec 002 §2, §5, §8): tabs Store, Settings
 * and Assigned Outlets (disabled for a new store); Back returns to /admin with the Stores tab. With only
 * bcc.stores.admin everything is read-only with a notice; bcc.stores.super_admin saves and assigns.
 */
export function StoreEditorRoute() {
  const { id } = useParams();
  const isNew = id === 'new';
  const storeId = isNew ? null : Number(id);
  const { hasPermission, hasAnyPermission } = useSession();
  const canEdit = hasPermission(PERMISSIONS.storesSuperAdmin);
  const navigate = useNavigate();
  const back = () => navigate('/admin', { state: { activeTab: 'stores' } });
  const store = useApi(storeId ? `/admin/stores/${storeId}` : null, adminStoreSchema, { revalidateOnFocus: false });
  const [tab, setTab] = useState('store');

  if (!hasAnyPermission([PERMISSIONS.storesAdmin, PERMISSIONS.storesSuperAdmin])) {
    return (
      <Shell onBack={back} title="Store">
        <EmptyState title="Access Denied" description={M.storeViewDenied} />
      </Shell>
    );
  }
  if (isNew && !canEdit)
    return (
      <Shell onBack={back} title="Add Store">
        <EmptyState title="Access Denied" description={M.storeModifyDenied} />
      </Shell>
    );
  if (!isNew && (!Number.isInteger(storeId) || store.error)) {
    const notFound = !Number.isInteger(storeId) || store.error?.status === 404;
    return (
      <Shell onBack={back} title="Store">
        <EmptyState
          title={notFound ? 'Store not found or access denied' : 'Failed to fetch store details'}
          description={notFound ? undefined : store.error?.message}
        />
      </Shell>
    );
  }
  if (!isNew && !store.data) return <PageSpinner text="Loading store..." />;
  return (
    <Shell
      onBack={back}
      title={isNew ? 'Add Store' : store.data!.name}
      subtitle={
        isNew ? 'A new store of one of your boards' : `Store ${store.data!.id} · ${store.data!.warehouseCode} · ${store.data!.boardName}`
      }
    >
      {!canEdit && (
        <p role="note" className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <Lock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          Read-only: you can view this store, but changing its details, settings or assigned outlets needs the bcc.stores.super_admin
          permission.
        </p>
      )}
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Store editor">
          <TabsTrigger value="store">Store</TabsTrigger>
          <TabsTrigger value="settings">Settings</TabsTrigger>
          <TabsTrigger value="outlets" disabled={isNew}>
            Assigned Outlets
          </TabsTrigger>
        </TabsList>
        <StoreForm
          key={store.data?.id ?? 'new'}
          store={store.data}
          canEdit={canEdit}
          tab={tab}
          setTab={setTab}
          onSaved={(s) => {
            if (isNew) navigate(`/admin/store/${s.id}`, { replace: true });
            else void store.mutate(s, { revalidate: false });
          }}
        />
        {!isNew && (
          <TabsContent value="outlets">
            <AssignedOutlets storeId={storeId!} canEdit={canEdit} />
          </TabsContent>
        )}
      </Tabs>
    </Shell>
  );
}

function Shell({ title, subtitle, onBack, children }: { title: string; subtitle?: string; onBack: () => void; children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl space-y-4 px-4 py-6 sm:py-8">
      <Button variant="ghost" size="sm" onClick={onBack}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Back
      </Button>
      <div>
        <h1 className="text-2xl font-semibold text-stone-900">{title}</h1>
        {subtitle && <p className="text-sm text-stone-500">{subtitle}</p>}
      </div>
      {children}
    </div>
  );
}

function StoreForm({
  store,
  canEdit,
  tab,
  setTab,
  onSaved,
}: {
  store?: AdminStore;
  canEdit: boolean;
  tab: string;
  setTab: (t: string) => void;
  onSaved: (s: AdminStore) => void;
}) {
  const boards = useApi('/admin/boards', adminBoardListSchema, { shouldRetryOnError: false });
  const {
    register,
    handleSubmit,
    control,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(storeFormSchema),
    defaultValues: toForm(store),
  });
  useEffect(() => {
    reset(toForm(store));
  }, [store, reset]);
  const storeFields: (keyof FormIn)[] = [
    'name',
    'warehouseCode',
    'boardId',
    'address',
    'city',
    'state',
    'zipCode',
    'phone',
    'latitude',
    'longitude',
  ];
  const submit = handleSubmit(
    async (body) => {
      try {
        const res = store ? await api.patch(`/admin/stores/${store.id}`, body) : await api.post('/admin/stores', body);
        const saved = adminStoreSchema.parse(res.data);
        toast.success(store ? 'Store saved' : 'Store created', { description: saved.name, duration: SAVE_TOAST_MS });
        reset(toForm(saved));
        onSaved(saved);
      } catch (e) {
        const err = toApiError(e);
        for (const f of [...storeFields, 'deliveryCharge', 'orderconfCcemails'] as (keyof FormIn)[]) {
          const m = err.fieldError(f);
          if (m) setError(f, { message: m });
        }
        const title =
          err.status === 403
            ? M.storeModifyDenied
            : err.status === 404
              ? 'No rows were updated - check permissions or data'
              : 'Failed to save store';
        toast.error(title, { description: err.status === 403 ? undefined : err.message, duration: SAVE_TOAST_MS });
      }
    },
    (errs) => {
      if (errs.orderconfCcemails)
        notify({
          title: M.invalidEmails,
          description: 'Separate addresses with semicolons, e.g. orders@example.com;manager@example.com',
          variant: 'destructive',
        });
      if (storeFields.some((f) => errs[f])) setTab('store');
      else if (errs.deliveryCharge || errs.orderconfCcemails) setTab('settings');
    },
  );
  const text = (
    name: keyof FormIn,
    label: string,
    opts: { required?: boolean; hint?: string; className?: string; inputMode?: 'decimal' | 'tel' | 'numeric' } = {},
  ) => (
    <Field
      id={`store-${name}`}
      label={`${label}${opts.required ? ' *' : ''}`}
      error={errors[name]?.message}
      hint={opts.hint}
      className={opts.className}
    >
      <Input
        {...describedBy(`store-${name}`, errors[name]?.message, Boolean(opts.hint))}
        disabled={!canEdit}
        inputMode={opts.inputMode}
        {...register(name)}
      />
    </Field>
  );
  const showSave = canEdit && (tab === 'store' || tab === 'settings');
  return (
    <form onSubmit={submit} noValidate aria-label="Store">
      <TabsContent value="store" forceMount hidden={tab !== 'store'}>
        <Card>
          <CardHeader>
            <CardTitle>Store details</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            {text('name', 'Store name', { required: true, className: 'sm:col-span-2' })}
            {text('warehouseCode', 'Warehouse code', { required: true })}
            <Field id="store-boardId" label="Board *" error={errors.boardId?.message}>
              <Controller
                control={control}
                name="boardId"
                render={({ field }) => (
                  <Select
                    {...describedBy('store-boardId', errors.boardId?.message)}
                    disabled={!canEdit}
                    value={field.value ?? ''}
                    onBlur={field.onBlur}
                    onChange={(e) => field.onChange(e.target.value ? Number(e.target.value) : undefined)}
                  >
                    <option value="">Select a board</option>
                    {(boards.data?.items ?? (store ? [{ id: store.boardId, name: store.boardName }] : [])).map((b) => (
                      <option key={b.id} value={b.id}>
                        {b.name}
                      </option>
                    ))}
                  </Select>
                )}
              />
            </Field>
            {text('address', 'Address', { className: 'sm:col-span-2' })}
            {text('city', 'City', { required: true })}
            <Field id="store-state" label="State *" error={errors.state?.message}>
              <Controller
                control={control}
                name="state"
                render={({ field }) => (
                  <Input
                    {...describedBy('store-state', errors.state?.message)}
                    disabled={!canEdit}
                    maxLength={2}
                    value={field.value ?? ''}
                    onBlur={field.onBlur}
                    onChange={(e) => field.onChange(e.target.value.toUpperCase().slice(0, 2))}
                  />
                )}
              />
            </Field>
            {text('zipCode', 'ZIP code', { inputMode: 'numeric' })}
            {text('phone', 'Phone', { inputMode: 'tel' })}
            {text('latitude', 'Latitude', { inputMode: 'decimal' })}
            {text('longitude', 'Longitude', { inputMode: 'decimal' })}
            <Controller
              control={control}
              name="active"
              render={({ field }) => (
                <div className="flex items-center gap-3 sm:col-span-2">
                  <Switch id="store-active" checked={Boolean(field.value)} onCheckedChange={field.onChange} disabled={!canEdit} />
                  <label htmlFor="store-active" className="text-sm text-stone-800">
                    Active
                  </label>
                </div>
              )}
            />
          </CardContent>
        </Card>
      </TabsContent>
      <TabsContent value="settings" forceMount hidden={tab !== 'settings'}>
        <Card>
          <CardHeader>
            <CardTitle>Delivery and order confirmations</CardTitle>
            <CardDescription>The delivery charge applies only to Delivery orders.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {store && !store.hasPaymentCredentials && (
              <p role="status" className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
                <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
                This store has no payment credentials: card payments cannot be processed until they are added in the Credentials tab.
              </p>
            )}
            <Controller
              control={control}
              name="deliveryEnabled"
              render={({ field }) => (
                <div className="flex items-center gap-3">
                  <Switch id="store-delivery" checked={Boolean(field.value)} onCheckedChange={field.onChange} disabled={!canEdit} />
                  <label htmlFor="store-delivery" className="text-sm text-stone-800">
                    Delivery enabled
                  </label>
                </div>
              )}
            />
            <Field
              id="store-deliveryCharge"
              label="Delivery charge (USD)"
              error={errors.deliveryCharge?.message}
              hint="e.g. 5 or 5.00; empty means 0"
            >
              <Controller
                control={control}
                name="deliveryCharge"
                render={({ field }) => (
                  <Input
                    {...describedBy('store-deliveryCharge', errors.deliveryCharge?.message, true)}
                    disabled={!canEdit}
                    inputMode="decimal"
                    className="sm:max-w-48"
                    value={String(field.value ?? '')}
                    onChange={(e) => field.onChange(typeDeliveryCharge(e.target.value))}
                    onBlur={() => {
                      field.onChange(blurDeliveryCharge(String(field.value ?? '')));
                      field.onBlur();
                    }}
                  />
                )}
              />
            </Field>
            <Field
              id="store-orderconfCcemails"
              label="Order confirmation CC emails"
              error={errors.orderconfCcemails?.message}
              hint="Separate addresses with semicolons: orders@example.com;manager@example.com"
            >
              <Input
                {...describedBy('store-orderconfCcemails', errors.orderconfCcemails?.message, true)}
                disabled={!canEdit}
                type="text"
                inputMode="email"
                {...register('orderconfCcemails')}
              />
            </Field>
          </CardContent>
        </Card>
      </TabsContent>
      {showSave && (
        <div className="mt-4 flex justify-end">
          <Button type="submit" loading={isSubmitting} disabled={Boolean(store) && !isDirty}>
            {isSubmitting ? 'Saving...' : store ? 'Save Store' : 'Create Store'}
          </Button>
        </div>
      )}
    </form>
  );
}

function AssignedOutlets({ storeId, canEdit }: { storeId: number; canEdit: boolean }) {
  const list = useApi(`/admin/stores/${storeId}/outlets`, storeOutletListSchema);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const found = useApi(canEdit && q ? `/admin/outlets?search=${encodeURIComponent(q)}&pageSize=10` : null, adminOutletPageSchema);
  const [busy, setBusy] = useState<number | null>(null);
  const assigned = new Set(list.data?.items.map((o) => o.outletId));
  const change = async (outletId: number, name: string, assign: boolean) => {
    setBusy(outletId);
    try {
      if (assign) await api.put(`/admin/stores/${storeId}/outlets/${outletId}`);
      else await api.delete(`/admin/stores/${storeId}/outlets/${outletId}`);
      notify({ title: assign ? 'Outlet assigned' : 'Outlet removed', description: name, variant: 'success' });
      await list.mutate();
    } catch (e) {
      notify({
        title: assign ? 'Failed to assign outlets' : 'Failed to remove outlet',
        description: toApiError(e).message,
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Assigned Outlets</CardTitle>
        <CardDescription>Outlets that may order from this store.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {canEdit && (
          <div className="space-y-2">
            <label htmlFor="assign-search" className="text-sm font-medium text-stone-800">
              Assign an outlet
            </label>
            <div className="relative">
              <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
              <Input
                id="assign-search"
                type="search"
                className="pl-9"
                placeholder="Search outlets by name, code or city"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
            {q && (
              <ul className="divide-y divide-stone-100 rounded-md border border-stone-200" aria-label="Matching outlets">
                {found.data?.items.length ? (
                  found.data.items.map((o) => (
                    <li key={o.id} className="flex items-center justify-between gap-2 px-3 py-2 text-sm">
                      <span>
                        <span className="font-medium">{o.name}</span> <span className="text-stone-500">({o.outletCode})</span>
                      </span>
                      {assigned.has(o.id) ? (
                        <span className="text-xs text-stone-500">Assigned</span>
                      ) : (
                        <Button
                          size="sm"
                          variant="outline"
                          loading={busy === o.id}
                          onClick={() => void change(o.id, o.name, true)}
                          aria-label={`Assign ${o.name}`}
                        >
                          <Plus className="h-4 w-4" aria-hidden />
                          Assign
                        </Button>
                      )}
                    </li>
                  ))
                ) : (
                  <li className="px-3 py-2 text-sm text-stone-500">{found.isLoading ? 'Searching…' : 'No outlets match.'}</li>
                )}
              </ul>
            )}
          </div>
        )}
        {list.error ? (
          <p role="alert" className="text-sm text-red-600">
            Failed to fetch store details: {list.error.message}
          </p>
        ) : !list.data ? (
          <PageSpinner />
        ) : !list.data.items.length ? (
          <EmptyState title="No outlets assigned" description="Assigned outlets can order from this store." />
        ) : (
          <Table aria-label="Assigned outlets">
            <thead>
              <tr>
                <Th>Outlet</Th>
                <Th>Code</Th>
                <Th>City</Th>
                {canEdit && (
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((o) => (
                <tr key={o.outletId}>
                  <Td className="font-medium">
                    {o.outletName}
                    {!o.active && <span className="ml-2 text-xs text-stone-500">(inactive)</span>}
                  </Td>
                  <Td className="font-mono text-xs">{o.outletCode}</Td>
                  <Td>
                    {o.city ?? '—'}
                    {o.state ? `, ${o.state}` : ''}
                  </Td>
                  {canEdit && (
                    <Td>
                      <Button
                        variant="ghost"
                        size="sm"
                        loading={busy === o.outletId}
                        onClick={() => void change(o.outletId, o.outletName, false)}
                        aria-label={`Remove ${o.outletName}`}
                      >
                        <Trash2 className="h-4 w-4" aria-hidden />
                        Remove
                      </Button>
                    </Td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
