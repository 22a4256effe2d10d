import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FormDialog } from '@/components/admin/form-dialog';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { WEEKDAY_SHORT } from '@/lib/format';
import {
  outletScheduleFormSchema,
  outletScheduleFormValues,
  saveOutletSchedule,
  useOutletSchedule,
  type OutletScheduleBody,
  type OutletScheduleForm,
} from '../api/outlet-schedule';

type TextName = Exclude<keyof OutletScheduleForm, 'orderDays'>;
const TEXT_FIELDS: { name: TextName; label: string; placeholder: string; mode: 'numeric' | 'text' }[] = [
  { name: 'cutoffLocalTime', label: 'Cut-off (store time, HH:MM)', placeholder: '14:00', mode: 'text' },
  { name: 'deliveryLeadDays', label: 'Delivery lead days', placeholder: '1', mode: 'numeric' },
  { name: 'emergencyAllowance', label: 'Emergency orders a year', placeholder: '12', mode: 'numeric' },
];

/**
 * One outlet's own order schedule at this store (issue 28 §1 "per-outlet overrides"): order days, cut-off, lead
 * days and emergency allowance; a field left empty (no day ticked) keeps the store's value. Saved with PUT, toasted.
 */
export function OutletScheduleDialog({
  storeId,
  outlet,
  onClose,
}: {
  storeId: number;
  outlet: { outletId: number; outletName: string };
  onClose: () => void;
}) {
  const saved = useOutletSchedule(storeId, outlet.outletId);
  const form = useForm<OutletScheduleForm, unknown, OutletScheduleBody>({
    resolver: zodResolver(outletScheduleFormSchema),
    defaultValues: outletScheduleFormValues(undefined),
  });
  useEffect(() => {
    if (saved.data) form.reset(outletScheduleFormValues(saved.data));
  }, [saved.data, form]);
  const submit = form.handleSubmit(async (body) => {
    try {
      await saveOutletSchedule(storeId, outlet.outletId, body);
      notify({ title: 'Outlet schedule saved', description: outlet.outletName, variant: 'success' });
      onClose();
    } catch (e) {
      notify({ title: 'Failed to save the outlet schedule', description: toApiError(e).message, variant: 'destructive' });
    }
  });
  const errors = form.formState.errors;
  return (
    <FormDialog
      title={`Order schedule for ${outlet.outletName}`}
      description="Only what differs from the store's schedule: leave a field empty to keep the store's value."
      formId="outlet-schedule"
      onSubmit={(e) => void submit(e)}
      onClose={onClose}
      busy={form.formState.isSubmitting || saved.isLoading}
    >
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-stone-800">Order days (none ticked: the store&apos;s days)</legend>
        <div className="flex flex-wrap gap-3">
          {WEEKDAY_SHORT.map((day, i) => (
            <label key={day} htmlFor={`outlet-day-${i}`} className="flex items-center gap-1.5 text-sm text-stone-800">
              <input
                id={`outlet-day-${i}`}
                type="checkbox"
                value={String(i)}
                className="h-4 w-4 accent-brand-700"
                {...form.register('orderDays')}
              />
              {day}
            </label>
          ))}
        </div>
      </fieldset>
      {TEXT_FIELDS.map((f) => (
        <Field key={f.name} id={`outlet-${f.name}`} label={f.label} error={errors[f.name]?.message}>
          <Input
            {...describedBy(`outlet-${f.name}`, errors[f.name]?.message, false)}
            inputMode={f.mode}
            placeholder={`Store's value (e.g. ${f.placeholder})`}
            {...form.register(f.name)}
          />
        </Field>
      ))}
    </FormDialog>
  );
}
