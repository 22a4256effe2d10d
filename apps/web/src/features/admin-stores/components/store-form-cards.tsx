import { Controller, type UseFormReturn } from 'react-hook-form';
import { AlertTriangle } from 'lucide-react';
import type { AdminStore } from '@portal/contracts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { useStoreBoardOptions } from '../api/stores';
import { blurDeliveryCharge, typeDeliveryCharge } from '../delivery-charge';
import type { StoreFormIn, StoreFormOut } from '../hooks/use-store-editor';

type Form = UseFormReturn<StoreFormIn, unknown, StoreFormOut>;

/** A text field of the store form: label (" *" when required), hint, error and read-only without `canEdit`. */
function StoreTextField({
  form,
  canEdit,
  name,
  label,
  required,
  hint,
  className,
  inputMode,
}: {
  form: Form;
  canEdit: boolean;
  name: keyof StoreFormIn;
  label: string;
  required?: boolean;
  hint?: string;
  className?: string;
  inputMode?: 'decimal' | 'tel' | 'numeric';
}) {
  const error = form.formState.errors[name]?.message;
  return (
    <Field id={`store-${name}`} label={`${label}${required ? ' *' : ''}`} error={error} hint={hint} className={className}>
      <Input {...describedBy(`store-${name}`, error, Boolean(hint))} disabled={!canEdit} inputMode={inputMode} {...form.register(name)} />
    </Field>
  );
}

/** The Store tab's card (spec 002 §2): name, warehouse code, board, address, city, state (2 letters), ZIP, phone, coordinates, Active. */
export function StoreDetailsCard({ form, canEdit, store }: { form: Form; canEdit: boolean; store?: AdminStore }) {
  const boards = useStoreBoardOptions();
  const {
    control,
    formState: { errors },
  } = form;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Store details</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <StoreTextField form={form} canEdit={canEdit} name="name" label="Store name" required className="sm:col-span-2" />
        <StoreTextField form={form} canEdit={canEdit} name="warehouseCode" label="Warehouse code" required />
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
        <StoreTextField form={form} canEdit={canEdit} name="address" label="Address" className="sm:col-span-2" />
        <StoreTextField form={form} canEdit={canEdit} name="city" label="City" required />
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
        <StoreTextField form={form} canEdit={canEdit} name="zipCode" label="ZIP code" inputMode="numeric" />
        <StoreTextField form={form} canEdit={canEdit} name="phone" label="Phone" inputMode="tel" />
        <StoreTextField form={form} canEdit={canEdit} name="latitude" label="Latitude" inputMode="decimal" />
        <StoreTextField form={form} canEdit={canEdit} name="longitude" label="Longitude" inputMode="decimal" />
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
  );
}

/** The Settings tab's card: the no-credentials notice, Delivery enabled, the delivery charge and the CC emails. */
export function StoreSettingsCard({ form, canEdit, store }: { form: Form; canEdit: boolean; store?: AdminStore }) {
  const {
    register,
    control,
    formState: { errors },
  } = form;
  return (
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
  );
}
