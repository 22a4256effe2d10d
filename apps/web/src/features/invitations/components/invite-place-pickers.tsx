import { useCallback } from 'react';
import { Controller, type Control } from 'react-hook-form';
import { INVITATION_MESSAGES, type GrantableOutlet } from '@portal/contracts';
import { AsyncCombobox, type ComboOption } from '@/components/admin/async-combobox';
import type { FormIn, FormOut } from './use-invite-user';

const M = INVITATION_MESSAGES;
/** How many matches a picker shows at once (type to narrow). */
const SHOWN = 20;

/** A place the dialog offers, as a picker option: name, and a hint of code, city and board. */
export interface PlaceOption {
  id: number;
  label: string;
  detail: string;
}
export const outletPlace = (o: GrantableOutlet): PlaceOption => ({
  id: o.id,
  label: o.isAdminOutlet ? `${o.name} (${M.adminOutletLabel})` : o.name,
  detail: [o.code, o.city, o.boardName].filter(Boolean).join(' · '),
});
const option = (p: PlaceOption): ComboOption => ({ value: String(p.id), label: p.label, hint: p.detail });

/**
 * A searchable picker over the places the invitation options offer (issue 26 §4: 1,511 outlets or 2,296 stores are
 * never listed as checkboxes): the first 20 matches of the search by name, code, city or board, the chosen ones as
 * chips, "Assigned only" for the chosen. The options are the inviter's reach (GET /invitations/options, already
 * loaded), so the search runs over them here.
 */
export function PlacePicker({
  label,
  name,
  control,
  places,
  emptyText,
}: {
  label: string;
  name: 'outletIds' | 'storeIds' | 'boardIds';
  control: Control<FormIn, unknown, FormOut>;
  places: PlaceOption[];
  emptyText: string;
}) {
  const load = useCallback(
    async (search: string) => {
      const q = search.toLowerCase();
      const hits = q ? places.filter((p) => `${p.label} ${p.detail}`.toLowerCase().includes(q)) : places;
      return { items: hits.slice(0, SHOWN).map(option), total: hits.length };
    },
    [places],
  );
  const byId = new Map(places.map((p) => [p.id, p]));
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => {
        const ids = field.value ?? [];
        return (
          <AsyncCombobox
            label={label}
            placeholder={`Search and add ${label.replace(/^Select /, '').toLowerCase()}…`}
            searchPlaceholder="Search by name, code or city"
            assignedOnlyLabel="Selected only"
            emptyText={emptyText}
            portal={false}
            selected={ids.flatMap((id) => {
              const p = byId.get(id);
              return p ? [option(p)] : [];
            })}
            load={load}
            onToggle={(o, on) => {
              const id = Number(o.value);
              field.onChange(on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id));
            }}
          />
        );
      }}
    />
  );
}
