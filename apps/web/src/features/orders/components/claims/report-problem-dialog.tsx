import { useEffect } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Order } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field, Label, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { CLAIM_REASON_LABELS, openClaim, type ClaimReason } from '../../api/claims';
import { NOTE_MAX, claimFormDefaults, claimFormSchema, toClaimBody, type ClaimFormValues } from './claim-form';

const textareaClass =
  'w-full rounded-md border border-stone-300 p-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600 aria-[invalid=true]:border-red-500';

/**
 * "Report a problem" (issue 28 §4): the buyer picks the lines of a completed order (within 48 h), how many bottles
 * and why (damaged, leaking, wrong item, short) and adds a note; the store is told and resolves it. The server's
 * refusal (window passed, more than ordered) shows in a toast; success toasts and calls `onOpened`.
 */
export function ReportProblemDialog({
  order,
  open,
  onClose,
  onOpened,
}: {
  order: Order;
  open: boolean;
  onClose: () => void;
  onOpened: () => void;
}) {
  const form = useForm<ClaimFormValues>({ resolver: zodResolver(claimFormSchema), defaultValues: claimFormDefaults(order.items) });
  const { reset } = form;
  useEffect(() => {
    if (open) reset(claimFormDefaults(order.items));
  }, [open, order, reset]);
  const submit = form.handleSubmit(async (v) => {
    try {
      await openClaim(order.id, toClaimBody(v));
      notify({
        title: 'Problem reported',
        description: `The store will resolve your claim on order ${order.orderNumber}.`,
        variant: 'success',
      });
      onOpened();
      onClose();
    } catch (e) {
      notify({
        title: 'Claim not sent',
        description: e instanceof ApiError ? e.message : 'The claim could not be sent. Please try again.',
        variant: 'destructive',
      });
    }
  });
  const rootError = form.formState.errors.lines?.root?.message;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={`Report a problem with order ${order.orderNumber}`}
      description="Report damaged, leaking, wrong or missing bottles within 48 hours of completion."
      className="max-w-2xl"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="report-problem-form" loading={form.formState.isSubmitting}>
            Send claim
          </Button>
        </>
      }
    >
      <form id="report-problem-form" noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <fieldset className="space-y-2" aria-describedby={rootError ? 'claim-lines-error' : undefined}>
          <legend className="mb-1 text-sm font-medium text-stone-800">Lines with a problem</legend>
          {order.items.map((item, i) => (
            <ClaimLineRow key={item.id} form={form} index={i} name={item.itemName} code={item.itemCode} size={item.bottleSizeText} />
          ))}
          {rootError && (
            <p id="claim-lines-error" role="alert" className="text-sm text-red-600">
              {rootError}
            </p>
          )}
        </fieldset>
        <Field id="claim-note" label="Note (optional)" error={form.formState.errors.note?.message}>
          <textarea
            rows={3}
            maxLength={NOTE_MAX}
            className={textareaClass}
            placeholder="e.g. One bottle arrived broken in the case"
            {...describedBy('claim-note', form.formState.errors.note?.message)}
            {...form.register('note')}
          />
        </Field>
      </form>
    </Dialog>
  );
}

/** One order line: the checkbox to pick it, then its bottles and reason. */
function ClaimLineRow({
  form,
  index,
  name,
  code,
  size,
}: {
  form: UseFormReturn<ClaimFormValues>;
  index: number;
  name: string;
  code: string;
  size: string | null;
}) {
  const base = `claim-line-${index}`;
  const picked = form.watch(`lines.${index}.picked`);
  const ordered = form.watch(`lines.${index}.ordered`);
  const errors = form.formState.errors.lines?.[index];
  return (
    <div className="rounded-md border border-stone-200 p-3">
      <div className="flex items-start gap-3">
        <Controller
          control={form.control}
          name={`lines.${index}.picked`}
          render={({ field }) => (
            <Checkbox id={`${base}-picked`} checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} className="mt-0.5" />
          )}
        />
        <Label htmlFor={`${base}-picked`} className="flex-1">
          {name}{' '}
          <span className="font-normal text-stone-500">
            · {code}
            {size ? ` · ${size}` : ''} · {ordered} ordered
          </span>
        </Label>
      </div>
      {picked && (
        <div className="mt-3 grid gap-3 pl-7 sm:grid-cols-[8rem_1fr]">
          <Field id={`${base}-qty`} label="Bottles" error={errors?.quantity?.message}>
            <Input
              inputMode="numeric"
              {...describedBy(`${base}-qty`, errors?.quantity?.message)}
              {...form.register(`lines.${index}.quantity`)}
            />
          </Field>
          <Field id={`${base}-reason`} label="Reason" error={errors?.reason?.message}>
            <Select {...describedBy(`${base}-reason`, errors?.reason?.message)} {...form.register(`lines.${index}.reason`)}>
              <option value="">Choose a reason</option>
              {(Object.keys(CLAIM_REASON_LABELS) as ClaimReason[]).map((r) => (
                <option key={r} value={r}>
                  {CLAIM_REASON_LABELS[r]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      )}
    </div>
  );
}
