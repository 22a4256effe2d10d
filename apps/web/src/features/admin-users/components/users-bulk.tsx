import { useState } from 'react';
import {
  adminOutletPageSchema,
  adminStorePageSchema,
  adminBoardListSchema,
  type AdminUserBulkAction,
  type BulkUserResult,
} from '@portal/contracts';
import { AsyncFilter } from '@/components/admin/async-filter';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { notify } from '@/components/ui/toaster';
import { toApiError, useApi } from '@/lib/api';
import { runUserBulk, useRoleChoices } from '../api/admin-users';
import { formatCount } from '@/lib/format';

/** What each bulk action is called before and after (the confirmation and the summary). */
const VERBS: Record<AdminUserBulkAction, { label: string; done: string; ask: (n: string) => string }> = {
  activate: { label: 'Activate', done: 'activated', ask: (n) => `Activate ${n}?` },
  deactivate: { label: 'Deactivate', done: 'deactivated', ask: (n) => `Deactivate ${n}?` },
  grant: { label: 'Grant role', done: 'granted', ask: (n) => `Grant a role to ${n}?` },
  revoke: { label: 'Revoke role', done: 'revoked', ask: (n) => `Revoke a role from ${n}?` },
  'resend-invitation': { label: 'Resend invitation', done: 'resent', ask: (n) => `Resend the invitations of ${n}?` },
};
const plural = (n: number, one: string) => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`;

/** "48 deactivated, 2 skipped: a@example.com (You cannot deactivate yourself), …" (at most 5 named). */
export function summarize(action: AdminUserBulkAction, results: BulkUserResult[], nameOf: (id: string) => string): string {
  const ok = results.filter((r) => r.ok).length;
  const skipped = results.filter((r) => !r.ok);
  const head = `${formatCount(ok)} ${VERBS[action].done}`;
  if (!skipped.length) return head;
  const named = skipped.slice(0, 5).map((r) => `${nameOf(r.userId)} (${r.message ?? r.code ?? 'refused'})`);
  return `${head}, ${formatCount(skipped.length)} skipped: ${named.join(', ')}${skipped.length > 5 ? ', …' : ''}`;
}

interface Grant {
  roleId: number;
  scopeType: 'global' | 'board' | 'store' | 'outlet';
  scopeId: number | null;
  placeLabel: string;
}

/** The role and the place of a bulk grant or revoke: the role's scope type decides which place is asked for. */
function GrantFields({ value, onChange }: { value: Partial<Grant>; onChange: (g: Partial<Grant>) => void }) {
  const roles = useRoleChoices().data?.items ?? [];
  const boards = useApi(value.scopeType === 'board' ? '/admin/boards' : null, adminBoardListSchema).data?.items ?? [];
  const setPlace = (id: string, label: string) => onChange({ ...value, scopeId: id ? Number(id) : null, placeLabel: label });
  return (
    <div className="mt-3 space-y-3 text-left">
      <div>
        <Label htmlFor="bulk-role">Role</Label>
        <Select
          id="bulk-role"
          value={value.roleId ?? ''}
          onChange={(e) => {
            const r = roles.find((x) => x.id === Number(e.target.value));
            onChange(r ? { roleId: r.id, scopeType: r.scopeType, scopeId: null, placeLabel: '' } : {});
          }}
        >
          <option value="">Choose a role</option>
          {roles.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name ?? r.code} ({r.scopeType})
            </option>
          ))}
        </Select>
      </div>
      {value.scopeType === 'outlet' && (
        <AsyncFilter
          label="At outlet"
          placeholder="Search outlets by name or code"
          value={value.scopeId ? String(value.scopeId) : ''}
          valueLabel={value.placeLabel}
          onChange={setPlace}
          path={(s) => `/admin/outlets?pageSize=8&search=${encodeURIComponent(s)}`}
          schema={adminOutletPageSchema}
          toChoices={(d) => d.items.map((o) => ({ id: String(o.id), label: `${o.name} (${o.outletCode})` }))}
        />
      )}
      {value.scopeType === 'store' && (
        <AsyncFilter
          label="At store"
          placeholder="Search stores by name, city or number"
          value={value.scopeId ? String(value.scopeId) : ''}
          valueLabel={value.placeLabel}
          onChange={setPlace}
          path={(s) => `/admin/stores?pageSize=8&search=${encodeURIComponent(s)}`}
          schema={adminStorePageSchema}
          toChoices={(d) => d.items.map((s) => ({ id: String(s.id), label: `${s.name} #${s.id}` }))}
        />
      )}
      {value.scopeType === 'board' && (
        <div>
          <Label htmlFor="bulk-board">At board</Label>
          <Select id="bulk-board" value={value.scopeId ?? ''} onChange={(e) => setPlace(e.target.value, '')}>
            <option value="">Choose a board</option>
            {boards.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </Select>
        </div>
      )}
    </div>
  );
}

/**
 * The bulk action bar of the users list (ARCHITECTURE §5 "Administration at scale"): the selected count,
 * "select all N matching", the actions (activate, deactivate, grant or revoke a role at a place, resend the
 * selected invitations), each confirmed in a dialog that states the count; the server checks every item as
 * if done alone and the per-item outcome is shown ("48 deactivated, 2 skipped: …") and toasted.
 */
export function UsersBulkBar({
  selectedIds,
  total,
  onSelectAll,
  onClear,
  invited,
  nameOf,
  onDone,
}: {
  selectedIds: string[];
  total: number;
  onSelectAll?: () => void;
  onClear: () => void;
  invited: boolean;
  nameOf: (id: string) => string;
  onDone: () => void;
}) {
  const [action, setAction] = useState<AdminUserBulkAction | null>(null);
  const [grant, setGrant] = useState<Partial<Grant>>({});
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);
  const n = selectedIds.length;
  const needsPlace = action === 'grant' || action === 'revoke';
  const ready = !needsPlace || (grant.roleId !== undefined && (grant.scopeType === 'global' || grant.scopeId));
  const run = async () => {
    if (!action) return;
    setBusy(true);
    try {
      const place = needsPlace
        ? { roleId: grant.roleId, scopeType: grant.scopeType, scopeId: grant.scopeType === 'global' ? null : grant.scopeId }
        : {};
      const results = await runUserBulk({ action, userIds: selectedIds, ...place });
      const text = summarize(action, results, nameOf);
      setSummary(text);
      const failed = results.some((r) => !r.ok);
      notify({ title: text.split(':')[0], variant: failed ? 'default' : 'success' });
      setAction(null);
      setGrant({});
      onDone();
    } catch (e) {
      notify({ title: 'The bulk action failed', description: toApiError(e).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const actions: AdminUserBulkAction[] = invited ? ['resend-invitation'] : ['activate', 'deactivate', 'grant', 'revoke'];
  return (
    <>
      {summary && (
        <div
          role="status"
          className="flex items-start justify-between gap-2 rounded-md border border-stone-200 bg-stone-50 p-3 text-sm text-stone-800"
        >
          <span>{summary}</span>
          <Button variant="ghost" size="sm" onClick={() => setSummary(null)}>
            Dismiss
          </Button>
        </div>
      )}
      {n > 0 && (
        <div
          role="region"
          aria-label="Bulk actions"
          className="sticky bottom-2 z-10 flex flex-wrap items-center gap-2 rounded-lg border border-brand-200 bg-white p-3 shadow-md"
        >
          <span className="text-sm font-medium text-stone-900">{plural(n, 'user')} selected</span>
          {onSelectAll && n < total && (
            <Button variant="link" size="sm" onClick={onSelectAll}>
              Select all {formatCount(total)} matching
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear
          </Button>
          <div className="flex flex-wrap gap-2 sm:ml-auto">
            {actions.map((a) => (
              <Button key={a} size="sm" variant={a === 'deactivate' ? 'destructive' : 'outline'} onClick={() => setAction(a)}>
                {VERBS[a].label}
              </Button>
            ))}
          </div>
        </div>
      )}
      <AlertDialog
        open={action !== null}
        onOpenChange={(o) => !o && !busy && setAction(null)}
        title={action ? VERBS[action].ask(plural(n, 'user')) : ''}
        description={
          <>
            <p>Each of the {plural(n, 'selected row')} is checked as if changed alone: those you may not change are skipped and listed.</p>
            {needsPlace && <GrantFields value={grant} onChange={setGrant} />}
          </>
        }
        action={
          <Button variant={action === 'deactivate' ? 'destructive' : 'primary'} onClick={() => void run()} loading={busy} disabled={!ready}>
            {action ? `${VERBS[action].label} (${formatCount(n)})` : ''}
          </Button>
        }
      />
    </>
  );
}
