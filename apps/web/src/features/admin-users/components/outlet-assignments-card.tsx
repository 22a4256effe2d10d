import { useCallback, useRef } from 'react';
import { ADMIN_USER_MESSAGES as M, type ManageableOutlet } from '@portal/contracts';
import { AsyncCombobox, type ComboOption } from '@/components/admin/async-combobox';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toApiError } from '@/lib/api';
import { searchManageableOutlets } from '../api/outlet-picker';

/** An outlet as a picker option: name, code as hint; an outlet the viewer cannot manage is read-only with the spec's hint. */
export const outletOption = (o: ManageableOutlet): ComboOption => ({
  value: String(o.outletId),
  label: o.outletName,
  hint: o.outletCode,
  disabled: !o.canManage,
  disabledHint: M.outletReadOnlyHint,
});

/**
 * Outlet Assignments (spec 002 §2 Edit User; issue 26 §4): the user's outlets as chips, sorted by name, and a
 * searchable picker over every outlet the viewer manages (server search, 20 at a time, "Assigned only"). Outlets the
 * viewer cannot manage are read-only with the spec's hint. Ticking an outlet gives the user the roles they hold at
 * the viewer's outlets there when saved (ARCHITECTURE §11: "these roles at these outlets of mine").
 */
export function OutletAssignmentsCard({
  userId,
  outlets,
  onToggle,
}: {
  userId: string;
  /** The outlets ticked now (loaded and picked), sorted by name. */
  outlets: ManageableOutlet[];
  onToggle: (o: ManageableOutlet, on: boolean) => void;
}) {
  const byId = new Map(outlets.map((o) => [String(o.outletId), o]));
  // Outlets seen in the picker's answers, by id: a pick adds the outlet with its name and canManage.
  const found = useRef(new Map<string, ManageableOutlet>());
  const load = useCallback(
    async (search: string, signal: AbortSignal) => {
      try {
        const page = await searchManageableOutlets(userId, search, signal);
        page.items.forEach((o) => found.current.set(String(o.outletId), o));
        return { items: page.items.map(outletOption), total: page.total };
      } catch (e) {
        throw new Error(`Failed to load outlets: ${toApiError(e).message}`);
      }
    },
    [userId],
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Outlet Assignments</CardTitle>
        <CardDescription>Manage outlet assignments for this user</CardDescription>
      </CardHeader>
      <CardContent>
        <AsyncCombobox
          label="Outlets"
          placeholder="Search and add outlets…"
          searchPlaceholder="Search outlets by name or code"
          assignedOnlyLabel="Assigned only"
          emptyText="No outlets available"
          selected={outlets.map(outletOption)}
          load={load}
          onToggle={(opt, on) => {
            const o = byId.get(opt.value) ?? found.current.get(opt.value);
            if (o) onToggle(o, on);
          }}
        />
      </CardContent>
    </Card>
  );
}
