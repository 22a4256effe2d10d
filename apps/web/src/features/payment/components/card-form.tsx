import { useForm, Controller, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreditCard, Lock } from 'lucide-react';
import { cardSchema, type Card, type CardInput } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { caretAfterDigits, digitsOnly, formatCardNumber, formatExpiration } from '../lib/card-format';

const EMPTY: CardInput = { cardName: '', cardNumber: '', expiration: '', securityCode: '', zipCode: '' };

/** Re-formats a digits field as the person types and keeps the caret after the same digit. */
function reformat(el: HTMLInputElement, format: (v: string) => string, onChange: (v: string) => void) {
  const caret = el.selectionStart ?? el.value.length;
  const digitsBefore = digitsOnly(el.value.slice(0, caret)).length;
  const next = format(el.value);
  onChange(next);
  if (caret < el.value.length) {
    requestAnimationFrame(() => {
      if (document.activeElement !== el) return;
      const pos = caretAfterDigits(next, digitsBefore);
      el.setSelectionRange(pos, pos);
    });
  }
}

/**
 * The card form of the payment page (spec 002 §5): holder name, number grouped by 4 (at most 16 digits),
 * MM/YY expiration, security code and ZIP, validated with the contracts' cardSchema (messages verbatim).
 * Values live only in the form state; they are handed to `onPay` and never stored or logged.
 */
export function CardForm({
  payLabel,
  processing,
  disabled,
  onPay,
}: {
  payLabel: string;
  processing: boolean;
  disabled?: boolean;
  onPay: (card: Card) => unknown;
}) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<CardInput, unknown, Card>({
    resolver: zodResolver(cardSchema),
    mode: 'onTouched',
    defaultValues: EMPTY,
  });
  const err = (k: keyof CardInput) => errors[k]?.message;

  return (
    <form noValidate aria-label="Card payment" onSubmit={handleSubmit((card) => onPay(card))} className="space-y-4">
      <Field id="cardName" label="Card holder name" error={err('cardName')}>
        <Input
          {...describedBy('cardName', err('cardName'))}
          autoComplete="cc-name"
          placeholder="Name on card"
          maxLength={50}
          {...register('cardName')}
        />
      </Field>
      <Field id="cardNumber" label="Card number" error={err('cardNumber')}>
        <div className="relative">
          <DigitsInput
            control={control}
            name="cardNumber"
            error={err('cardNumber')}
            onInput={(el, onChange) => reformat(el, formatCardNumber, onChange)}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 5678 9012 3456"
            className="pr-10 tabular-nums"
          />
          <CreditCard className="pointer-events-none absolute right-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
        </div>
      </Field>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <Field id="expiration" label="Expiration (MM/YY)" error={err('expiration')}>
          <DigitsInput
            control={control}
            name="expiration"
            error={err('expiration')}
            onInput={(el, onChange) => reformat(el, formatExpiration, onChange)}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            className="tabular-nums"
          />
        </Field>
        <Field id="securityCode" label="Security code" error={err('securityCode')}>
          <DigitsInput
            control={control}
            name="securityCode"
            error={err('securityCode')}
            onInput={(el, onChange) => onChange(digitsOnly(el.value, 4))}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            className="tabular-nums"
          />
        </Field>
        <Field id="zipCode" label="ZIP code" error={err('zipCode')} className="col-span-2 sm:col-span-1">
          <DigitsInput
            control={control}
            name="zipCode"
            error={err('zipCode')}
            onInput={(el, onChange) => onChange(digitsOnly(el.value, 5))}
            inputMode="numeric"
            autoComplete="postal-code"
            placeholder="12345"
            className="tabular-nums"
          />
        </Field>
      </div>
      <Button type="submit" size="lg" className="w-full" loading={processing} disabled={disabled}>
        {processing ? (
          'Processing...'
        ) : (
          <>
            <Lock className="h-4 w-4" aria-hidden />
            {payLabel}
          </>
        )}
      </Button>
    </form>
  );
}

/**
 * A digits field of the card form on a react-hook-form Controller: `onInput` turns what was typed into the
 * field's value (grouping, caret kept); the error, when any, is announced through aria-describedby.
 */
function DigitsInput({
  control,
  name,
  error,
  onInput,
  ...input
}: {
  control: Control<CardInput, unknown, Card>;
  name: 'cardNumber' | 'expiration' | 'securityCode' | 'zipCode';
  error: string | undefined;
  onInput: (el: HTMLInputElement, onChange: (value: string) => void) => void;
  inputMode: 'numeric';
  autoComplete: string;
  placeholder: string;
  className: string;
}) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <Input
          {...describedBy(name, error)}
          ref={field.ref}
          name={field.name}
          value={field.value}
          onBlur={field.onBlur}
          onChange={(e) => onInput(e.target, field.onChange)}
          {...input}
        />
      )}
    />
  );
}
