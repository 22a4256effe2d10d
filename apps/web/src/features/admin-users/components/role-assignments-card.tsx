import { useCallback, useState } from 'react';
import { Lock, Plus, X } from 'lucide-react';
import { GRANT_MESSAGES, type AdminRoleRef, type AssignableRoles, type GrantRef } from '@portal/contracts';
import { AsyncCombobox } from '@/components/admin/async-combobox';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import type { GrantPlaces } from '../api/admin-users';

const SCOPE_LABEL: Record<GrantRef['scopeType'], string> = { global: 'Everywhere', board: 'Board', store: 'Store', outlet: 'Outlet' };

/** "Outlet Buyer · Demo – Court Avenue Taproom": a grant as one line (ARCHITECTURE §11: a role is held at a place). */
export const grantLabel = (g: Pick<GrantRef, 'name' | 'code' | 'scopeType' | 'scopeName'>) =>
  `${g.name ?? g.code} · ${g.scopeType === 'global' ? 'everywhere' : g.scopeName}`;

/**
 * The "add a role" row's state: the chosen role and place, the roles still addable (an outlet role while a ticked
 * outlet lacks it), whether the role needs a store or board, whether an outlet role waits for a ticked outlet, and
 * `add` (the places of the grant by the role's scope type; the row is cleared).
 */
function useAddRole({
  grants,
  assignable,
  outletIdsForRoles,
  onAdd,
}: {
  grants: GrantRef[];
  assignable: AssignableRoles;
  outletIdsForRoles: number[];
  onAdd: (role: AdminRoleRef, places: GrantPlaces) => void;
}) {
  const [roleId, setRoleId] = useState('');
  const [placeId, setPlaceId] = useState('');
  const role = assignable.items.find((r) => String(r.id) === roleId);
  const places = role?.scopeType === 'store' ? assignable.stores : role?.scopeType === 'board' ? assignable.boards : [];
  const needsPlace = role?.scopeType === 'store' || role?.scopeType === 'board';
  const outletRoleBlocked = role?.scopeType === 'outlet' && outletIdsForRoles.length === 0;
  // The spec's dropdown offers roles not yet assigned: an outlet role is offered while a ticked outlet lacks it.
  const addable = assignable.items.filter(
    (r) =>
      r.scopeType !== 'outlet' ||
      !outletIdsForRoles.length ||
      outletIdsForRoles.some((o) => !grants.some((g) => g.roleId === r.id && g.scopeId === o)),
  );
  const add = () => {
    if (!role) return;
    const p: GrantPlaces =
      role.scopeType === 'outlet'
        ? { outletIds: outletIdsForRoles }
        : role.scopeType === 'store'
          ? { storeIds: [Number(placeId)] }
          : role.scopeType === 'board'
            ? { boardIds: [Number(placeId)] }
            : {};
    setRoleId('');
    setPlaceId('');
    onAdd(role, p);
  };
  const chooseRole = (id: string) => {
    setRoleId(id);
    setPlaceId('');
  };
  return { role, roleId, chooseRole, placeId, setPlaceId, places, needsPlace, outletRoleBlocked, addable, add };
}

/**
 * Role Assignments (spec 002 §2 Edit User; ARCHITECTURE §11): each role the user holds, with where; the caller
 * adds a role at the places they manage — an outlet role at the outlets ticked under Outlet Assignments ("these
 * roles at these outlets of mine"), a store or board role at the store or board chosen here — and removes the
 * grants they may change. Grants at places the caller does not manage are shown read-only and never changed.
 * Adding and removing apply at once (the caller rolls back on failure).
 */
export function RoleAssignmentsCard({
  grants,
  assignable,
  outletIdsForRoles,
  busy,
  onAdd,
  onRemove,
}: {
  grants: GrantRef[];
  assignable: AssignableRoles;
  /** The manageable outlets ticked under Outlet Assignments: where an outlet role goes. */
  outletIdsForRoles: number[];
  busy: boolean;
  onAdd: (role: AdminRoleRef, places: GrantPlaces) => void;
  onRemove: (grant: GrantRef) => void;
}) {
  const { role, roleId, chooseRole, placeId, setPlaceId, places, needsPlace, outletRoleBlocked, addable, add } = useAddRole({
    grants,
    assignable,
    outletIdsForRoles,
    onAdd,
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Role Assignments</CardTitle>
        <CardDescription>Manage the roles assigned to this user</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-2 sm:flex-row">
          <div className="flex-1">
            <Label htmlFor="edit-user-role-add" className="sr-only">
              Role to add
            </Label>
            <Select id="edit-user-role-add" value={roleId} onChange={(e) => chooseRole(e.target.value)} disabled={busy}>
              <option value="">Select role to add...</option>
              {addable.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name ?? r.code}
                  {r.scopeType === 'outlet' ? '' : ` (${SCOPE_LABEL[r.scopeType].toLowerCase()} role)`}
                </option>
              ))}
            </Select>
          </div>
          {needsPlace && role && (
            <div className="flex-1">
              <PlacePicker
                kind={role.scopeType === 'store' ? 'Store' : 'Board'}
                places={places}
                placeId={placeId}
                setPlaceId={setPlaceId}
                disabled={busy}
              />
            </div>
          )}
          <Button
            variant="outline"
            size="icon"
            aria-label="Add role"
            className="self-end sm:self-auto"
            onClick={add}
            disabled={!role || busy || (needsPlace && !placeId) || outletRoleBlocked}
          >
            <Plus className="h-4 w-4" aria-hidden />
          </Button>
        </div>
        {role?.scopeType === 'outlet' && (
          <p className="text-xs text-stone-500">
            {outletRoleBlocked
              ? 'Tick at least one outlet you manage under Outlet Assignments: the role is held at those outlets.'
              : `Granted at the ${outletIdsForRoles.length === 1 ? 'outlet' : `${outletIdsForRoles.length} outlets`} ticked under Outlet Assignments.`}
          </p>
        )}
        <AssignedRoles grants={grants} busy={busy} onRemove={onRemove} />
      </CardContent>
    </Card>
  );
}

/** The roles the user holds, each with where; editable grants get a Remove button, the others read "read-only". */
function AssignedRoles({ grants, busy, onRemove }: { grants: GrantRef[]; busy: boolean; onRemove: (grant: GrantRef) => void }) {
  const readOnly = grants.filter((g) => !g.editable);
  return grants.length === 0 ? (
    <p className="text-sm text-stone-500">No roles assigned</p>
  ) : (
    <>
      {readOnly.length > 0 && <p className="text-xs text-stone-500">{GRANT_MESSAGES.readOnlyElsewhere(readOnly.length)}</p>}
      <ul className="space-y-2" aria-label="Assigned roles">
        {grants.map((g) => (
          <li
            key={`${g.roleId}:${g.scopeType}:${g.scopeId}`}
            className={`flex items-start justify-between gap-3 rounded-md border p-3 ${g.editable ? 'border-stone-200' : 'border-dashed border-stone-200 bg-stone-50'}`}
          >
            <div className="min-w-0">
              <p className="text-sm font-medium text-stone-900">
                <span>{g.name ?? g.code}</span>
                <span className="ml-2 inline-flex items-center rounded bg-stone-100 px-1.5 py-0.5 text-xs font-normal text-stone-600">
                  {SCOPE_LABEL[g.scopeType]}
                </span>
              </p>
              <p className="text-xs text-stone-600">{g.scopeType === 'global' ? 'Every board, store and outlet' : `at ${g.scopeName}`}</p>
              {g.description && <p className="text-xs text-stone-500">{g.description}</p>}
            </div>
            {g.editable ? (
              <Button variant="ghost" size="icon" aria-label={`Remove ${grantLabel(g)}`} onClick={() => onRemove(g)} disabled={busy}>
                <X className="h-4 w-4" aria-hidden />
              </Button>
            ) : (
              <span className="flex items-center gap-1 text-xs text-stone-500">
                <Lock className="h-3.5 w-3.5" aria-hidden />
                read-only
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/** A store or board where a role can be held, as the picker lists it. */
type Place = { id: number; name: string; warehouseCode?: string; boardNumber?: number };
const placeOption = (p: Place) => ({
  value: String(p.id),
  label: p.name,
  hint: p.warehouseCode ?? (p.boardNumber !== undefined ? `Board ${p.boardNumber}` : undefined),
});

/**
 * The store or board a store- or board-level role is granted at (issue 26 §4: thousands of stores are searched,
 * never listed in one dropdown): the first 20 matches of the search by name or code among the places where the
 * caller manages users (already loaded with the assignable roles); the chosen one as a chip.
 */
function PlacePicker({
  kind,
  places,
  placeId,
  setPlaceId,
  disabled,
}: {
  kind: 'Store' | 'Board';
  places: Place[];
  placeId: string;
  setPlaceId: (id: string) => void;
  disabled: boolean;
}) {
  const load = useCallback(
    async (search: string) => {
      const q = search.toLowerCase();
      const hits = places.filter((p) => `${p.name} ${p.warehouseCode ?? ''} ${p.boardNumber ?? ''} ${p.id}`.toLowerCase().includes(q));
      return { items: hits.slice(0, 20).map(placeOption), total: hits.length };
    },
    [places],
  );
  const chosen = places.find((p) => String(p.id) === placeId);
  return (
    <AsyncCombobox
      label={`${kind} for the role`}
      placeholder={kind === 'Store' ? 'At store...' : 'At board...'}
      searchPlaceholder={`Search ${kind.toLowerCase()}s by name or number`}
      selected={chosen ? [placeOption(chosen)] : []}
      onToggle={(o, on) => setPlaceId(on ? o.value : '')}
      load={load}
      disabled={disabled}
    />
  );
}
