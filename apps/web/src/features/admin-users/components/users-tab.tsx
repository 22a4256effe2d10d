import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Lock, Search, Users } from 'lucide-react';
import { ADMIN_USER_MESSAGES as M, type AdminUserRow } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Badge, EmptyState, PageSpinner } from '@/components/ui/feedback';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { useAdminUsers } from '../api/admin-users';

/** Search debounce (spec 002 §9: 300 ms). */
const DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

/**
 * Each role with where it is held (ARCHITECTURE §11): "Outlet Manager · Riverfront", "Outlet Buyer · 3 outlets",
 * "Super Administrator · All".
 */
const roleNames = (u: AdminUserRow) =>
  u.roles.map((r) => {
    const where = r.scopeName ?? `${r.scopeCount} ${r.scopeType}s`;
    return `${r.name ?? r.code} · ${where}`;
  });
const NOT_EDITABLE = "You don't have permission to edit this user";

/** The user's name, linked to Edit User when the viewer may edit them, else a button explaining why not. */
function UserName({ user }: { user: AdminUserRow }) {
  const name = user.fullName ?? user.email;
  if (user.canEdit)
    return (
      <Link
        to={`/admin/users/${user.id}`}
        className="font-medium text-brand-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 rounded"
      >
        {name}
      </Link>
    );
  return (
    <button
      type="button"
      onClick={() => notify({ title: NOT_EDITABLE, variant: 'destructive' })}
      className="inline-flex items-center gap-1 text-left font-medium text-stone-700 cursor-pointer rounded focus-visible:outline-2 focus-visible:outline-brand-600"
      title={NOT_EDITABLE}
    >
      {name}
      <Lock className="h-3.5 w-3.5 text-stone-400" aria-label="read-only" />
    </button>
  );
}

/** The users as a table on wide screens and as cards on narrow ones (spec 002 §2 Users). */
function UserList({ users }: { users: AdminUserRow[] }) {
  return (
    <>
      <div className="hidden overflow-x-auto rounded-lg border border-stone-200 bg-white md:block">
        <table className="w-full text-left text-sm">
          <thead className="bg-stone-50 text-xs uppercase tracking-wide text-stone-500">
            <tr>
              {['Name', 'Email', 'Outlets', 'Roles', 'Status'].map((h) => (
                <th key={h} scope="col" className="px-4 py-3">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {users.map((u) => (
              <tr key={u.id} className="align-top hover:bg-stone-50">
                <td className="px-4 py-3">
                  <UserName user={u} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-stone-600">{u.email}</td>
                <td className="px-4 py-3 text-stone-600">{u.outlets.map((o) => o.name).join(', ') || '—'}</td>
                <td className="px-4 py-3">
                  <div className="flex flex-wrap gap-1">
                    {roleNames(u).map((n) => (
                      <Badge key={n} variant="outline" className="whitespace-nowrap">
                        {n}
                      </Badge>
                    ))}
                  </div>
                </td>
                <td className="px-4 py-3">
                  {u.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="destructive">Inactive</Badge>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 md:hidden" aria-label="Users">
        {users.map((u) => (
          <li key={u.id} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
            <div className="flex items-start justify-between gap-2">
              <UserName user={u} />
              {u.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="destructive">Inactive</Badge>}
            </div>
            <p className="mt-1 break-all text-sm text-stone-600">{u.email}</p>
            {u.outlets.length > 0 && <p className="mt-1 text-xs text-stone-500">{u.outlets.map((o) => o.name).join(', ')}</p>}
            <div className="mt-2 flex flex-wrap gap-1">
              {roleNames(u).map((n) => (
                <Badge key={n} variant="outline">
                  {n}
                </Badge>
              ))}
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The Users tab (spec 002 §2 Users, §8, §9): the caller's scoped users, 50 at first and 50 more per Load
 * More, searchable by name or email; a row opens Edit User when canEdit. `actions` sits beside the search
 * (the Invite button) and `children` below the list (outlet requests, pending invitations): composed by the
 * admin route, since features never import each other.
 */
export function UsersTab({ actions, children }: { actions?: ReactNode; children?: ReactNode }) {
  const [term, setTerm] = useState('');
  const search = useDebounced(term, DEBOUNCE_MS);
  const { users, meta, hasMore, isLoading, isLoadingMore, error, loadMore, reload } = useAdminUsers(search);
  const navigate = useNavigate();

  let body: ReactNode;
  if (isLoading) body = <PageSpinner text="Loading users..." />;
  else if (error) {
    const expired = error.status === 401;
    body = (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
        <p>Error loading users: {expired ? M.sessionExpired : error.message}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          {!expired && (
            <Button variant="outline" size="sm" onClick={() => void reload()}>
              Try again
            </Button>
          )}
          <Button size="sm" onClick={() => navigate('/auth')}>
            Login Again
          </Button>
        </div>
      </div>
    );
  } else if (users.length === 0) {
    body = (
      <EmptyState
        icon={<Users className="h-8 w-8" />}
        title="No users found"
        description={search ? `Nothing matches “${search}”.` : meta?.scopeDescription}
      />
    );
  } else {
    body = (
      <>
        <UserList users={users} />
        {hasMore && (
          <div className="mt-4 flex justify-center">
            <Button variant="outline" onClick={() => void loadMore()} loading={isLoadingMore}>
              Load More
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby="admin-users-title" className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="admin-users-title" className="text-lg font-semibold text-stone-900">
            Users
          </h2>
          {meta && (
            <p className="text-sm text-stone-500">
              {meta.scopeDescription} · {meta.userCount} {meta.userCount === 1 ? 'user' : 'users'}
            </p>
          )}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      <div className="max-w-md">
        <Label htmlFor="admin-users-search" className="sr-only">
          Search users
        </Label>
        <div className="relative">
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
          <Input
            id="admin-users-search"
            type="search"
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            placeholder="Search by name or email"
            className="pl-9"
          />
        </div>
      </div>
      {body}
      {children}
    </section>
  );
}
