import { useEffect, useRef, useState } from 'react';
import { MailPlus, RotateCw, Search, Trash2 } from 'lucide-react';
import type { AdminInvitation, InvitationStatus } from '@portal/contracts';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Badge, EmptyState } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { resendInvitation, revokeInvitation, useAdminInvitations } from '../api/invitations';
import { FilterButtons, ListCard, Pager, listState } from './list-parts';

type Filter = InvitationStatus | 'all';
const FILTERS = [
  { value: 'pending', label: 'Pending' },
  { value: 'expired', label: 'Expired' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'revoked', label: 'Revoked' },
  { value: 'all', label: 'All' },
] as const;
const PAGE_SIZE = 10;
const badge = { pending: 'warning', accepted: 'success', expired: 'default', revoked: 'destructive' } as const;
const label = (s: InvitationStatus) => s[0].toUpperCase() + s.slice(1);

/**
 * Invitations (issue 11 §4): the invitations in the administrator's scope, by status, searchable by email
 * or name (server-side, 300 ms debounce), with Resend (a new link; the old one stops working) and Revoke
 * (confirmed) for pending and expired ones. Hosted by the profile menu's dialog and the admin Users tab.
 */
export function PendingInvitationsPanel() {
  const [filter, setFilter] = useState<Filter>('pending');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<AdminInvitation | null>(null);
  const { data, error, isLoading, mutate } = useAdminInvitations({
    status: filter === 'all' ? undefined : filter,
    search: search || undefined,
    page,
    pageSize: PAGE_SIZE,
  });

  const act = async (inv: AdminInvitation, kind: 'resend' | 'revoke') => {
    setBusy(inv.id);
    try {
      if (kind === 'resend') {
        await resendInvitation(inv.id);
        notify({ title: 'Invitation Sent', description: `Invitation has been sent to ${inv.email}`, variant: 'success' });
      } else {
        await revokeInvitation(inv.id);
        notify({ title: 'Invitation revoked', description: `The link sent to ${inv.email} no longer works.`, variant: 'success' });
        setRevoking(null);
      }
    } catch (e) {
      notify({
        title: 'Error',
        description: (e instanceof ApiError && e.status !== 0 && e.message) || 'Failed to update the invitation. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
      void mutate();
    }
  };

  let body = listState({
    loading: isLoading && !data,
    error,
    loadingLabel: 'Loading invitations',
    errorTitle: 'Failed to load invitations',
    onRetry: () => void mutate(),
  });
  if (!body && !data?.items.length) {
    body = (
      <EmptyState
        icon={<MailPlus className="h-8 w-8" />}
        title={search ? 'No invitations match your search' : 'No invitations'}
        description="Invitations you send appear here until they are accepted."
      />
    );
  } else if (!body && data) {
    body = (
      <ul className="space-y-2" aria-label="Invitations">
        {data.items.map((i) => (
          <InvitationItem
            key={i.id}
            invitation={i}
            busy={busy === i.id}
            revoking={revoking !== null}
            onResend={() => void act(i, 'resend')}
            onRevoke={() => setRevoking(i)}
          />
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby="invitations-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="invitations-title" className="text-base font-semibold text-stone-900">
          Invitations
        </h2>
        <FilterButtons
          label="Invitation status"
          value={filter}
          options={FILTERS}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
        />
      </div>
      <InvitationSearch
        onSearch={(text) => {
          setSearch(text);
          setPage(1);
        }}
      />
      {body}
      {data && <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} />}
      <RevokeDialog
        invitation={revoking}
        busy={revoking !== null && busy === revoking.id}
        onCancel={() => setRevoking(null)}
        onRevoke={() => revoking && void act(revoking, 'revoke')}
      />
    </section>
  );
}

/** One invitation: name, status, email, roles and places, sent / accepted / expiry dates; Resend and Revoke while open. */
function InvitationItem({
  invitation: i,
  busy,
  revoking,
  onResend,
  onRevoke,
}: {
  invitation: AdminInvitation;
  busy: boolean;
  /** The revoke confirmation is open (Resend then shows no spinner). */
  revoking: boolean;
  onResend: () => void;
  onRevoke: () => void;
}) {
  return (
    <ListCard
      title={`${i.firstName} ${i.lastName}`}
      badge={<Badge variant={badge[i.status]}>{label(i.status)}</Badge>}
      actions={
        i.status === 'pending' || i.status === 'expired' ? (
          <>
            <Button
              type="button"
              size="sm"
              variant="outline"
              loading={busy && !revoking}
              onClick={onResend}
              aria-label={`Resend the invitation to ${i.email}`}
            >
              <RotateCw className="h-4 w-4" aria-hidden />
              Resend
            </Button>
            <Button
              type="button"
              size="sm"
              variant="ghost"
              className="text-red-700 hover:bg-red-50"
              disabled={busy}
              onClick={onRevoke}
              aria-label={`Revoke the invitation to ${i.email}`}
            >
              <Trash2 className="h-4 w-4" aria-hidden />
              Revoke
            </Button>
          </>
        ) : undefined
      }
    >
      <p className="break-all">{i.email}</p>
      <p>
        {i.roleLabels.join(', ')}
        {[...i.outletLabels, ...i.storeLabels].length ? ` · ${[...i.outletLabels, ...i.storeLabels].join(', ')}` : ''}
      </p>
      <p className="text-xs text-stone-500">
        Sent {formatDate(i.sentAt)}
        {i.invitedByEmail ? ` by ${i.invitedByEmail}` : ''} ·{' '}
        {i.status === 'accepted' && i.usedAt ? `accepted ${formatDate(i.usedAt)}` : `expires ${formatDate(i.expiresAt)}`}
      </p>
    </ListCard>
  );
}

/** "Revoke this invitation?": the link stops working; the person may be invited again later. */
function RevokeDialog({
  invitation,
  busy,
  onCancel,
  onRevoke,
}: {
  invitation: AdminInvitation | null;
  busy: boolean;
  onCancel: () => void;
  onRevoke: () => void;
}) {
  return (
    <AlertDialog
      open={invitation !== null}
      onOpenChange={(o) => {
        if (!o) onCancel();
      }}
      title="Revoke this invitation?"
      description={invitation ? `The link sent to ${invitation.email} will stop working. You can invite them again later.` : ''}
      action={
        <Button type="button" variant="destructive" loading={busy} onClick={onRevoke}>
          Revoke invitation
        </Button>
      }
    />
  );
}

/** The search box: what is typed goes to `onSearch`, trimmed, 300 ms after the last keystroke. */
function InvitationSearch({ onSearch }: { onSearch: (text: string) => void }) {
  const [typed, setTyped] = useState('');
  const latest = useRef(onSearch);
  latest.current = onSearch;
  useEffect(() => {
    const h = setTimeout(() => latest.current(typed.trim()), 300);
    return () => clearTimeout(h);
  }, [typed]);
  return (
    <div className="relative">
      <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-stone-400" aria-hidden />
      <Input
        type="search"
        aria-label="Search invitations by email or name"
        placeholder="Search by email or name"
        className="pl-9"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
    </div>
  );
}
