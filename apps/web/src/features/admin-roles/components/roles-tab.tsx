import { useState } from 'react';
import { AlertTriangle, Lock } from 'lucide-react';
import { ADMIN_USER_MESSAGES as M, PERMISSIONS, type AdminRole } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/feedback';
import { Label } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { notify } from '@/components/ui/toaster';
import { cn } from '@/lib/cn';
import { setRolePermission, usePermissions, useRoles } from '../api/roles';

/** Picks the role to show: a select on narrow screens, a list of buttons (aria-current) on wide ones. */
function RolePicker({
  roles: list,
  selected: role,
  onSelect,
}: {
  roles: AdminRole[];
  selected: AdminRole;
  onSelect: (id: number) => void;
}) {
  return (
    <div>
      <Label htmlFor="admin-roles-select" className="md:sr-only">
        Role
      </Label>
      <div className="mt-1.5 md:hidden">
        <Select id="admin-roles-select" value={role.id} onChange={(e) => onSelect(Number(e.target.value))}>
          {list.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name ?? r.code} (level {r.level})
            </option>
          ))}
        </Select>
      </div>
      <nav aria-label="Roles" className="hidden md:block">
        <ul className="space-y-1">
          {list.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                onClick={() => onSelect(r.id)}
                aria-current={r.id === role.id ? 'true' : undefined}
                className={cn(
                  'flex w-full items-center justify-between rounded-md px-3 py-2 text-left text-sm cursor-pointer focus-visible:outline-2 focus-visible:outline-brand-600',
                  r.id === role.id ? 'bg-brand-50 font-medium text-brand-900' : 'text-stone-700 hover:bg-stone-100',
                )}
              >
                <span>{r.name ?? r.code}</span>
                <span className="text-xs text-stone-500">{r.level}</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/**
 * The Roles tab (spec 002 §2 Roles, §4, §8): each role's permissions as switches that apply at once and
 * revert on failure ('Failed to update permission'). Without bcc.admin.roles.update the switches are
 * read-only and a warning says so; the super_admin role never changes. A change reaches the role's holders
 * on their next request (within 2 s on the catalog).
 */
export function RolesTab({ canEdit }: { canEdit: boolean }) {
  const roles = useRoles();
  const perms = usePermissions();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [pending, setPending] = useState<Set<string>>(new Set());

  if (roles.isLoading || perms.isLoading) return <PageSpinner text="Loading roles..." />;
  if (roles.error || perms.error || !roles.data || !perms.data) {
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
        <p>{M.rolesLoadFailed}</p>
        <Button
          className="mt-3"
          size="sm"
          variant="outline"
          onClick={() => {
            void roles.mutate();
            void perms.mutate();
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
  const list = roles.data.items;
  const role = list.find((r) => r.id === selectedId) ?? list[0];
  if (!role) return <p className="text-sm text-stone-600">No roles defined.</p>;

  const toggle = async (code: string, on: boolean) => {
    const key = `${role.id}:${code}`;
    const patch = (r: AdminRole, granted: boolean): AdminRole => ({
      ...r,
      permissions: granted ? [...r.permissions, code].sort() : r.permissions.filter((p) => p !== code),
    });
    // Apply at once (optimistic), revert when the server refuses.
    void roles.mutate((d) => d && { items: d.items.map((r) => (r.id === role.id ? patch(r, on) : r)) }, { revalidate: false });
    setPending((s) => new Set(s).add(key));
    try {
      const saved = await setRolePermission(role.id, code, on);
      void roles.mutate((d) => d && { items: d.items.map((r) => (r.id === saved.id ? saved : r)) }, { revalidate: false });
      notify({
        title: 'Permission updated',
        description: `${role.name ?? role.code}: ${code} ${on ? 'granted' : 'revoked'}`,
        variant: 'success',
      });
    } catch {
      void roles.mutate((d) => d && { items: d.items.map((r) => (r.id === role.id ? patch(r, !on) : r)) }, { revalidate: false });
      notify({ title: M.permissionUpdateFailed, variant: 'destructive' });
    } finally {
      setPending((s) => {
        const n = new Set(s);
        n.delete(key);
        return n;
      });
    }
  };

  return (
    <section aria-labelledby="admin-roles-title" className="space-y-4">
      <div>
        <h2 id="admin-roles-title" className="text-lg font-semibold text-stone-900">
          Roles
        </h2>
        <p className="text-sm text-stone-500">
          Lower level = more privileged. A change applies to every holder of the role on their next request.
        </p>
      </div>
      {!canEdit && (
        <p role="note" className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          You need the {PERMISSIONS.adminRolesUpdate} permission to edit role permissions.
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-[14rem_1fr]">
        <RolePicker roles={list} selected={role} onSelect={setSelectedId} />
        <div className="rounded-lg border border-stone-200 bg-white">
          <div className="border-b border-stone-100 p-4">
            <h3 className="font-semibold text-stone-900">
              {role.name ?? role.code}{' '}
              <span className="text-sm font-normal text-stone-500">
                · {role.code} · level {role.level} · {role.userCount} {role.userCount === 1 ? 'user' : 'users'}
              </span>
            </h3>
            {role.description && <p className="text-sm text-stone-500">{role.description}</p>}
            {role.immutable && (
              <p className="mt-2 flex items-center gap-1.5 text-sm text-stone-600">
                <Lock className="h-4 w-4" aria-hidden />
                {M.roleImmutable}
              </p>
            )}
          </div>
          <ul className="divide-y divide-stone-100">
            {perms.data.items.map((p) => {
              const id = `perm-${role.id}-${p.code}`;
              const on = role.permissions.includes(p.code);
              return (
                <li key={p.code} className="flex items-center justify-between gap-4 px-4 py-3">
                  <div className="min-w-0">
                    <Label htmlFor={id} className="break-all font-mono text-xs sm:text-sm">
                      {p.code}
                    </Label>
                    {p.description && <p className="text-xs text-stone-500">{p.description}</p>}
                  </div>
                  <Switch
                    id={id}
                    checked={on}
                    disabled={!canEdit || role.immutable || pending.has(`${role.id}:${p.code}`)}
                    onCheckedChange={(v) => void toggle(p.code, v)}
                  />
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </section>
  );
}
