import { BadgeCheck } from 'lucide-react';
import type { MyRole } from '@portal/contracts';

/** A role's display name (spec 000 §2): role name, else code, else 'Unnamed Role'. */
export const roleName = (r: Pick<MyRole, 'roleName' | 'roleCode'>) => r.roleName?.trim() || r.roleCode?.trim() || 'Unnamed Role';

/** My Roles (spec 000 §2): read-only list of the user's roles with their descriptions. */
export function MyRoles({ roles }: { roles: MyRole[] }) {
  if (roles.length === 0) return <p className="text-sm text-stone-500">No roles assigned to your account.</p>;
  return (
    <ul className="divide-y divide-stone-100" aria-label="My roles">
      {roles.map((r) => (
        <li key={r.id} className="flex gap-3 py-3 first:pt-0 last:pb-0">
          <BadgeCheck className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden />
          <div className="text-sm">
            <p className="font-medium text-stone-900">{roleName(r)}</p>
            {r.description && <p className="text-stone-600">{r.description}</p>}
          </div>
        </li>
      ))}
    </ul>
  );
}
