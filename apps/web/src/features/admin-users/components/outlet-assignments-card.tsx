import { ADMIN_USER_MESSAGES as M, type ManageableOutlet } from '@portal/contracts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/field';

/**
 * Outlet Assignments (spec 002 §2 Edit User): a checkbox per outlet, sorted by name; outlets the viewer cannot
 * manage are disabled, '(read-only)', with the spec's hint. Ticking an outlet gives the user the roles they hold at
 * the viewer's outlets there when saved (ARCHITECTURE §11: "these roles at these outlets of mine").
 */
export function OutletAssignmentsCard({
  outlets,
  selected,
  onToggle,
}: {
  outlets: ManageableOutlet[];
  selected: Set<number>;
  onToggle: (o: ManageableOutlet, on: boolean) => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Outlet Assignments</CardTitle>
        <CardDescription>Manage outlet assignments for this user</CardDescription>
      </CardHeader>
      <CardContent>
        {outlets.length === 0 ? (
          <p className="text-sm text-stone-500">No outlets available</p>
        ) : (
          <ul className="divide-y divide-stone-100">
            {outlets.map((o) => {
              const id = `edit-user-outlet-${o.outletId}`;
              return (
                <li key={o.outletId} className="flex items-start gap-3 py-2.5">
                  <Checkbox
                    id={id}
                    className="mt-0.5"
                    checked={selected.has(o.outletId)}
                    disabled={!o.canManage}
                    onCheckedChange={(c) => onToggle(o, c === true)}
                    aria-describedby={o.canManage ? undefined : `${id}-hint`}
                  />
                  <div className="min-w-0">
                    <Label htmlFor={id} className={o.canManage ? 'cursor-pointer' : 'text-stone-500'}>
                      {o.outletName} <span className="font-normal text-stone-500">({o.outletCode})</span>
                      {!o.canManage && <span className="ml-1 font-normal text-stone-500">(read-only)</span>}
                    </Label>
                    {!o.canManage && (
                      <p id={`${id}-hint`} className="text-xs text-stone-500">
                        {M.outletReadOnlyHint}
                      </p>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
