import { Controller, type Control } from 'react-hook-form';
import { PlacePicker, outletPlace } from './invite-place-pickers';
import { INVITATION_MESSAGES, type GrantableOutlet, type GrantableRole } from '@portal/contracts';
import { Checkbox } from '@/components/ui/checkbox';
import { Spinner } from '@/components/ui/feedback';
import { Label } from '@/components/ui/field';
import type { FormIn, FormOut } from './use-invite-user';

const M = INVITATION_MESSAGES;

/** One checkbox with its label (and a detail line) in the dialog's lists. */
export function CheckRow({
  id,
  checked,
  onChange,
  label,
  detail,
}: {
  id: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  label: string;
  detail?: string | null;
}) {
  return (
    <div className="flex items-start gap-3 rounded-md px-2 py-1.5 hover:bg-stone-50">
      <Checkbox id={id} className="mt-0.5" checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      <Label htmlFor={id} className="cursor-pointer font-normal leading-snug">
        {label}
        {detail && <span className="block text-xs text-stone-500">{detail}</span>}
      </Label>
    </div>
  );
}

/** A checkbox list of stores or boards for store- and board-level roles (ARCHITECTURE §11). */
export function PlaceList({
  legend,
  empty,
  name,
  control,
  places,
}: {
  legend: string;
  empty: string;
  name: 'storeIds' | 'boardIds';
  control: Control<FormIn, unknown, FormOut>;
  places: { id: number; label: string; detail: string }[];
}) {
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-stone-800">{legend}</legend>
      <div className="max-h-52 overflow-y-auto rounded-md border border-stone-200 p-1">
        {places.length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-stone-500">{empty}</p>
        ) : (
          <Controller
            control={control}
            name={name}
            render={({ field }) => (
              <>
                {places.map((p) => (
                  <CheckRow
                    key={p.id}
                    id={`invite-${name}-${p.id}`}
                    checked={(field.value ?? []).includes(p.id)}
                    onChange={(on) => field.onChange(on ? [...(field.value ?? []), p.id] : (field.value ?? []).filter((id) => id !== p.id))}
                    label={p.label}
                    detail={p.detail}
                  />
                ))}
              </>
            )}
          />
        )}
      </div>
    </fieldset>
  );
}

/** The User Roles list: what the inviter may grant, each with its description; the roles error below it. */
export function RoleChoices({
  roles,
  roleIds,
  isLoading,
  failed,
  error,
  onToggle,
}: {
  roles: GrantableRole[];
  roleIds: number[];
  isLoading: boolean;
  failed: boolean;
  error: string | undefined;
  onToggle: (role: GrantableRole, on: boolean) => void;
}) {
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-stone-800">User Roles</legend>
      <div
        className="max-h-44 overflow-y-auto rounded-md border border-stone-200 p-1"
        aria-invalid={error !== undefined ? true : undefined}
      >
        {isLoading && <p className="px-2 py-1.5 text-sm text-stone-500">Loading roles...</p>}
        {!isLoading && !roles.length && (
          <p className="px-2 py-1.5 text-sm text-stone-500">{failed ? 'Failed to load roles.' : 'No roles available.'}</p>
        )}
        {roles.map((r) => (
          <CheckRow
            key={r.id}
            id={`invite-role-${r.id}`}
            checked={roleIds.includes(r.id)}
            onChange={(on) => onToggle(r, on)}
            label={r.name}
            detail={r.description}
          />
        ))}
      </div>
      {error !== undefined && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * What Select Outlets shows (spec 000 §5): loading, the load failure, no accessible outlets, "select roles first",
 * none for the chosen roles — each under the section's label — or the searchable outlet picker (issue 26 §4).
 */
export function OutletChoices({
  control,
  label,
  isLoading,
  failed,
  anyOutlets,
  roleIds,
  outlets,
}: {
  control: Control<FormIn, unknown, FormOut>;
  label: string;
  isLoading: boolean;
  failed: boolean;
  anyOutlets: boolean;
  roleIds: number[];
  outlets: GrantableOutlet[];
}) {
  if (anyOutlets && !isLoading && !failed && roleIds.length && outlets.length)
    return (
      <PlacePicker label={label} name="outletIds" control={control} places={outlets.map(outletPlace)} emptyText={M.noOutletsForRoles} />
    );
  const message = isLoading ? (
    <span className="flex items-center gap-2">
      <Spinner label={M.loadingOutlets} />
      {M.loadingOutlets}
    </span>
  ) : failed ? (
    <span role="alert" className="text-red-600">
      {M.failedOutlets}
    </span>
  ) : !anyOutlets ? (
    M.noAccessibleOutlets
  ) : !roleIds.length ? (
    M.selectRolesFirst
  ) : (
    M.noOutletsForRoles
  );
  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium text-stone-800">{label}</p>
      <p className="rounded-md border border-stone-200 px-3 py-2 text-sm text-stone-500">{message}</p>
    </div>
  );
}
