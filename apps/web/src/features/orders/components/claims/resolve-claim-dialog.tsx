import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Label, describedBy } from '@/components/ui/field';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { CLAIM_OUTCOMES, CLAIM_OUTCOME_LABELS, resolveClaim, type Claim } from '../../api/claims';
import { NOTE_MAX, resolveFormSchema, type ResolveFormValues } from './claim-form';

const OUTCOME_HINTS = {
  credit: 'The bottles are credited on the outlet’s statement.',
  replace: 'The store sends replacement bottles.',
  rejected: 'Nothing is credited; the buyer is told your reason.',
} as const;

/**
 * The store resolves a claim (issue 28 §4): credit, replace or rejected (a reason required), with a note the
 * buyer reads. Toasts the outcome and calls `onResolved`.
 */
export function ResolveClaimDialog({ claim, onClose, onResolved }: { claim: Claim | null; onClose: () => void; onResolved: () => void }) {
  const form = useForm<ResolveFormValues>({ resolver: zodResolver(resolveFormSchema), defaultValues: { outcome: 'credit', note: '' } });
  const { reset } = form;
  useEffect(() => {
    if (claim) reset({ outcome: 'credit', note: '' });
  }, [claim, reset]);
  const submit = form.handleSubmit(async (v) => {
    if (!claim) return;
    try {
      await resolveClaim(claim.id, { outcome: v.outcome, ...(v.note.trim() ? { note: v.note.trim() } : {}) });
      notify({ title: 'Claim resolved', description: `${CLAIM_OUTCOME_LABELS[v.outcome]} · claim ${claim.id}`, variant: 'success' });
      onResolved();
      onClose();
    } catch (e) {
      notify({ title: 'Claim not resolved', description: e instanceof ApiError ? e.message : 'Please try again.', variant: 'destructive' });
    }
  });
  const noteError = form.formState.errors.note?.message;
  return (
    <Dialog
      open={claim !== null}
      onOpenChange={(o) => !o && onClose()}
      title={`Resolve claim ${claim?.id ?? ''}`}
      description="The buyer is mailed the outcome."
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="resolve-claim-form" loading={form.formState.isSubmitting}>
            Resolve claim
          </Button>
        </>
      }
    >
      <form id="resolve-claim-form" noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-stone-800">Outcome</legend>
          <Controller
            control={form.control}
            name="outcome"
            render={({ field }) => (
              <RadioGroup value={field.value} onValueChange={field.onChange} aria-label="Outcome">
                {CLAIM_OUTCOMES.map((o) => (
                  <div key={o} className="flex items-start gap-3 rounded-md border border-stone-200 p-3">
                    <RadioGroupItem id={`resolve-${o}`} value={o} className="mt-0.5" />
                    <div>
                      <Label htmlFor={`resolve-${o}`}>{CLAIM_OUTCOME_LABELS[o]}</Label>
                      <p className="text-sm text-stone-500">{OUTCOME_HINTS[o]}</p>
                    </div>
                  </div>
                ))}
              </RadioGroup>
            )}
          />
        </fieldset>
        <Field id="resolve-note" label={form.watch('outcome') === 'rejected' ? 'Reason' : 'Note (optional)'} error={noteError}>
          <textarea
            rows={3}
            maxLength={NOTE_MAX}
            className="w-full rounded-md border border-stone-300 p-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600 aria-[invalid=true]:border-red-500"
            {...describedBy('resolve-note', noteError)}
            {...form.register('note')}
          />
        </Field>
      </form>
    </Dialog>
  );
}
