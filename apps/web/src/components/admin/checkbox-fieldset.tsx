import type { UseFormRegisterReturn } from 'react-hook-form';

/**
 * A fieldset of checkboxes bound to one react-hook-form array field (`register('events')`): one labelled
 * box per option (ids `${idPrefix}-${option}`), and the field's error under them as an alert.
 */
export function CheckboxFieldset({
  legend,
  idPrefix,
  options,
  registration,
  error,
}: {
  legend: string;
  idPrefix: string;
  options: readonly string[];
  registration: UseFormRegisterReturn;
  error?: string;
}) {
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-stone-800">{legend}</legend>
      {options.map((o) => (
        <label key={o} htmlFor={`${idPrefix}-${o}`} className="flex items-center gap-2 text-sm text-stone-800">
          <input id={`${idPrefix}-${o}`} type="checkbox" value={o} className="h-4 w-4 accent-brand-700" {...registration} /> {o}
        </label>
      ))}
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
