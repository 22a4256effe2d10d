import { useEffect, type InputHTMLAttributes } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CalendarClock } from 'lucide-react';
import type { AdminStore } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toApiError } from '@/lib/api';
import { WEEKDAY_SHORT } from '@/lib/format';
import {
  orderingFormSchema,
  orderingFormValues,
  saveStoreOrdering,
  type OrderingBody,
  type OrderingFormValues,
} from '../api/store-ordering';
import { notify } from '@/components/ui/toaster';

/** Time zones offered first (Iowa and the other US zones); the store's own is added when it is another. */
const TIME_ZONES = [
  'America/Chicago',
  'America/New_York',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
];
type Form = UseFormReturn<OrderingFormValues, unknown, OrderingBody>;
type TextName = Exclude<keyof OrderingFormValues, 'orderDays' | 'splitCasePolicy'>;

/** One text input of the ordering form with its label, hint and error. */
function OrderingField({
  form,
  name,
  label,
  hint,
  canEdit,
  ...input
}: { form: Form; name: TextName; label: string; hint?: string; canEdit: boolean } & Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'inputMode' | 'placeholder'
>) {
  const error = form.formState.errors[name]?.message;
  return (
    <Field id={`ordering-${name}`} label={label} error={error} hint={hint}>
      <Input {...describedBy(`ordering-${name}`, error, Boolean(hint))} disabled={!canEdit} {...input} {...form.register(name)} />
    </Field>
  );
}

/** The order days as seven labelled checkboxes (Sunday 0 … Saturday 6) and their error. */
function OrderDaysField({ form, canEdit }: { form: Form; canEdit: boolean }) {
  const daysError = form.formState.errors.orderDays?.message ?? form.formState.errors.orderDays?.root?.message;
  return (
    <fieldset className="sm:col-span-2" aria-describedby={daysError ? 'ordering-days-error' : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-stone-800">Order days</legend>
      <div className="flex flex-wrap gap-2">
        {WEEKDAY_SHORT.map((d, i) => (
          <label
            key={d}
            htmlFor={`ordering-day-${i}`}
            className="flex items-center gap-2 rounded-md border border-stone-200 px-3 py-2 text-sm text-stone-800 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
          >
            <input
              id={`ordering-day-${i}`}
              type="checkbox"
              value={String(i)}
              disabled={!canEdit}
              className="h-4 w-4 accent-brand-700"
              {...form.register('orderDays')}
            />
            {d}
          </label>
        ))}
      </div>
      {daysError && (
        <p id="ordering-days-error" role="alert" className="mt-1 text-sm text-red-600">
          {daysError}
        </p>
      )}
    </fieldset>
  );
}

const SPLIT_CASE_LABELS = {
  any: 'Any quantity',
  full_cases: 'Full cases only',
  split_fee: 'Split cases with a fee per bottle',
} as const;

/** Split cases (issue 27): the policy, and the fee per bottle of an incomplete case under split_fee. */
function SplitCaseFields({ form, canEdit }: { form: Form; canEdit: boolean }) {
  const error = form.formState.errors.splitCasePolicy?.message;
  const withFee = form.watch('splitCasePolicy') === 'split_fee';
  return (
    <>
      <Field id="ordering-splitCasePolicy" label="Split-case policy" error={error}>
        <Select {...describedBy('ordering-splitCasePolicy', error)} disabled={!canEdit} {...form.register('splitCasePolicy')}>
          {(Object.keys(SPLIT_CASE_LABELS) as (keyof typeof SPLIT_CASE_LABELS)[]).map((p) => (
            <option key={p} value={p}>
              {SPLIT_CASE_LABELS[p]}
            </option>
          ))}
        </Select>
      </Field>
      {withFee ? (
        <OrderingField form={form} canEdit={canEdit} name="splitCaseFee" label="Split-case fee per bottle ($)" inputMode="decimal" />
      ) : (
        <div className="hidden sm:block" />
      )}
    </>
  );
}

/**
 * The store editor's ordering week settings (issue 28 §5, Settings tab): order days, cut-off time and time zone,
 * delivery lead days, delivery minimum (litres and/or amount), emergency orders a year and their fee. Its own form
 * (react-hook-form + the contracts' storeOrderingPatchSchema), saved with PATCH /admin/stores/{id}; read-only
 * without `canEdit`.
 */
export function OrderingSettingsCard({
  store,
  canEdit,
  onSaved,
}: {
  store: AdminStore;
  canEdit: boolean;
  onSaved: (s: AdminStore) => void;
}) {
  const form: Form = useForm<OrderingFormValues, unknown, OrderingBody>({
    resolver: zodResolver(orderingFormSchema),
    defaultValues: orderingFormValues(store),
  });
  const { reset, handleSubmit, formState, setError } = form;
  useEffect(() => reset(orderingFormValues(store)), [store, reset]);
  const submit = handleSubmit(async (body) => {
    try {
      const saved = await saveStoreOrdering(store.id, body);
      notify({ title: 'Ordering settings saved', description: saved.name, variant: 'success', duration: 3000 });
      reset(orderingFormValues(saved));
      onSaved(saved);
    } catch (e) {
      const err = toApiError(e);
      for (const f of Object.keys(orderingFormValues()) as (keyof OrderingFormValues)[]) {
        const m = err.fieldError(f);
        if (m) setError(f, { message: m });
      }
      notify({ title: 'Failed to save the ordering settings', description: err.message, variant: 'destructive', duration: 3000 });
    }
  });
  const zones = TIME_ZONES.includes(store.timeZone ?? '') || !store.timeZone ? TIME_ZONES : [store.timeZone, ...TIME_ZONES];
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Ordering week" className="mt-4">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <CalendarClock className="h-5 w-5 text-stone-500" aria-hidden />
            Ordering week
          </CardTitle>
          <CardDescription>When outlets order and get deliveries, the delivery minimum and emergency orders.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <OrderDaysField form={form} canEdit={canEdit} />
          <OrderingField
            form={form}
            canEdit={canEdit}
            name="cutoffLocalTime"
            label="Cut-off time"
            type="time"
            hint="Orders placed after it are delivered one order day later."
          />
          <Field id="ordering-timeZone" label="Time zone" error={formState.errors.timeZone?.message}>
            <Select
              {...describedBy('ordering-timeZone', formState.errors.timeZone?.message)}
              disabled={!canEdit}
              {...form.register('timeZone')}
            >
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z.replace('_', ' ')}
                </option>
              ))}
            </Select>
          </Field>
          <OrderingField
            form={form}
            canEdit={canEdit}
            name="deliveryLeadDays"
            label="Delivery lead days"
            inputMode="numeric"
            hint="Days from the order day to the delivery day (0–14)."
          />
          <div className="hidden sm:block" />
          <OrderingField
            form={form}
            canEdit={canEdit}
            name="deliveryMinimumMl"
            label="Delivery minimum (litres)"
            inputMode="decimal"
            placeholder="No minimum"
            hint="e.g. 9 for one case of 12 × 750 ml."
          />
          <OrderingField
            form={form}
            canEdit={canEdit}
            name="deliveryMinimumAmount"
            label="Delivery minimum (amount, $)"
            inputMode="decimal"
            placeholder="No minimum"
            hint="Pickup has no minimum."
          />
          <OrderingField
            form={form}
            canEdit={canEdit}
            name="emergencyAllowance"
            label="Emergency orders a year (per outlet)"
            inputMode="numeric"
          />
          <OrderingField form={form} canEdit={canEdit} name="emergencyFee" label="Emergency order fee ($)" inputMode="decimal" />
          <SplitCaseFields form={form} canEdit={canEdit} />
        </CardContent>
      </Card>
      {canEdit && (
        <div className="mt-4 flex justify-end">
          <Button type="submit" loading={formState.isSubmitting} disabled={!formState.isDirty}>
            {formState.isSubmitting ? 'Saving...' : 'Save ordering settings'}
          </Button>
        </div>
      )}
    </form>
  );
}
