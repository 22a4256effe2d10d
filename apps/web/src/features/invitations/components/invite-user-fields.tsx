import { Controller, type Control } from 'react-hook-form';
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
 * What the Select Outlets list holds (spec 000 §5): loading, the load failure, no accessible outlets, "select
 * roles first", none for the chosen roles, or the outlets as checkboxes.
 */
export function OutletChoices({
  control,
  isLoading,
  failed,
  anyOutlets,
  roleIds,
  outlets,
}: {
  control: Control<FormIn, unknown, FormOut>;
  isLoading: boolean;
  failed: boolean;
  anyOutlets: boolean;
  roleIds: number[];
  outlets: GrantableOutlet[];
}) {
  if (isLoading)
    return (
      <p className="flex items-center gap-2 px-2 py-1.5 text-sm text-stone-500">
        <Spinner label={M.loadingOutlets} />
        {M.loadingOutlets}
      </p>
    );
  if (failed)
    return (
      <p role="alert" className="px-2 py-1.5 text-sm text-red-600">
        {M.failedOutlets}
      </p>
    );
  if (!anyOutlets) return <p className="px-2 py-1.5 text-sm text-stone-500">{M.noAccessibleOutlets}</p>;
  if (!roleIds.length) return <p className="px-2 py-1.5 text-sm text-stone-500">{M.selectRolesFirst}</p>;
  if (!outlets.length) return <p className="px-2 py-1.5 text-sm text-stone-500">{M.noOutletsForRoles}</p>;
  return (
    <Controller
      control={control}
      name="outletIds"
      render={({ field }) => (
        <>
          {outlets.map((o) => (
            <CheckRow
              key={o.id}
              id={`invite-outlet-${o.id}`}
              checked={(field.value ?? []).includes(o.id)}
              onChange={(on) => field.onChange(on ? [...(field.value ?? []), o.id] : (field.value ?? []).filter((id) => id !== o.id))}
              label={o.isAdminOutlet ? `${o.name} (${M.adminOutletLabel})` : o.name}
              detail={[o.code, o.city, o.boardName].filter(Boolean).join(' · ')}
            />
          ))}
        </>
      )}
    />
  );
}
