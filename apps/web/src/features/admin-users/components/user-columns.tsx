import { Link } from 'react-router-dom';
import { Lock } from 'lucide-react';
import type { AdminUserListRow } from '@portal/contracts';
import type { Column } from '@/components/admin/data-table';
import { Badge } from '@/components/ui/feedback';
import { formatDateTimeMedium } from '@/lib/format';

/**
 * Each role with where it is held (ARCHITECTURE §11): "Outlet Manager · Riverfront", "Outlet Buyer · 3 outlets",
 * "Super Administrator · All"; an invitation's roles as it names them.
 */
export const roleNames = (u: AdminUserListRow) =>
  u.invitation?.roleLabels ?? u.roles.map((r) => `${r.name ?? r.code} · ${r.scopeName ?? `${r.scopeCount} ${r.scopeType}s`}`);

/** "Nov 25, 2026, 10:00 AM", or "Never" (spec 002: lastLogin null). */
export const lastSignIn = (u: AdminUserListRow) =>
  u.lastLogin ? formatDateTimeMedium(u.lastLogin) : u.status === 'invited' ? '—' : 'Never';

function StatusBadge({ user }: { user: AdminUserListRow }) {
  if (user.status === 'invited') return <Badge variant="warning">Invited</Badge>;
  return user.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="destructive">Inactive</Badge>;
}

/** The users list's columns (spec 002 §2 Users; ARCHITECTURE §5): name, email and last sign-in sort on the server. */
export const userColumns: Column<AdminUserListRow>[] = [
  {
    header: 'Name',
    sortKey: 'name',
    className: 'font-medium',
    cell: (u) =>
      u.canEdit ? (
        <Link
          to={`/admin/users/${u.id}`}
          onClick={(e) => e.stopPropagation()}
          className="rounded text-brand-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {u.fullName ?? u.email}
        </Link>
      ) : (
        <span className="inline-flex items-center gap-1 text-stone-700">
          {u.fullName ?? u.email}
          {u.status !== 'invited' && <Lock className="h-3.5 w-3.5 text-stone-400" aria-label="read-only" />}
        </span>
      ),
  },
  { header: 'Email', sortKey: 'email', className: 'break-all text-stone-600', cell: (u) => u.email },
  {
    header: 'Outlets',
    className: 'text-stone-600 max-w-[14rem]',
    cell: (u) => (u.invitation?.outletLabels ?? u.outlets.map((o) => o.name)).join(', ') || '—',
  },
  {
    header: 'Roles',
    cell: (u) => (
      <div className="flex flex-wrap gap-1">
        {roleNames(u).map((n) => (
          <Badge key={n} variant="outline" className="max-w-full break-words whitespace-normal text-left">
            {n}
          </Badge>
        ))}
      </div>
    ),
  },
  { header: 'Status', sortKey: 'status', cell: (u) => <StatusBadge user={u} /> },
  { header: 'Last sign-in', sortKey: 'lastLogin', className: 'whitespace-nowrap text-stone-600', cell: lastSignIn },
];
