import { useState } from 'react';
import { Check, Inbox, X } from 'lucide-react';
import type { AdminOutletRequest } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge, EmptyState } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { decideOutletRequest, useOutletRequests } from '../api/invitations';
import { FilterButtons, ListCard, Pager, listState } from './list-parts';

type Filter = 'pending' | 'approved' | 'rejected' | 'all';
const FILTERS = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'all', label: 'All' },
] as const;
const PAGE_SIZE = 10;
const statusBadge = { pending: 'warning', approved: 'success', rejected: 'destructive' } as const;

/**
 * Outlet requests (issue 11 §9): the access requests for outlets the administrator may manage, pending
 * first, filterable by status, with Approve and Reject (an optional reason, mailed to the requester).
 * Hosted by the profile menu's dialog and by the admin Users tab.
 */
export function OutletRequestsPanel() {
  const [filter, setFilter] = useState<Filter>('pending');
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState<number | null>(null);
  const [rejecting, setRejecting] = useState<AdminOutletRequest | null>(null);
  const [reason, setReason] = useState('');
  const { data, error, isLoading, mutate } = useOutletRequests({
    status: filter === 'all' ? undefined : filter,
    page,
    pageSize: PAGE_SIZE,
  });

  const decide = async (r: AdminOutletRequest, approve: boolean, why?: string) => {
    setBusy(r.id);
    try {
      await decideOutletRequest(r.id, approve, why);
      const who = r.userName ?? r.userEmail;
      notify(
        approve
          ? { title: 'Request approved', description: `${who} now has access to ${r.outletName}.`, variant: 'success' }
          : { title: 'Request rejected', description: `${who} was told that access to ${r.outletName} was declined.`, variant: 'success' },
      );
      setRejecting(null);
      setReason('');
    } catch (e) {
      notify({
        title: 'Error',
        description: (e instanceof ApiError && e.status !== 0 && e.message) || 'Failed to update the request. Please try again.',
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
    loadingLabel: 'Loading outlet requests',
    errorTitle: 'Failed to load outlet requests',
    onRetry: () => void mutate(),
  });
  if (!body && !data?.items.length) {
    body = (
      <EmptyState
        icon={<Inbox className="h-8 w-8" />}
        title={filter === 'pending' ? 'No pending outlet requests' : 'No outlet requests'}
        description="Requests from users for outlets you manage appear here."
      />
    );
  } else if (!body && data) {
    body = (
      <ul className="space-y-2" aria-label="Outlet requests">
        {data.items.map((r) => (
          <OutletRequestItem
            key={r.id}
            request={r}
            busy={busy === r.id}
            onApprove={() => void decide(r, true)}
            onReject={() => {
              setReason('');
              setRejecting(r);
            }}
          />
        ))}
      </ul>
    );
  }

  return (
    <section aria-labelledby="outlet-requests-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="outlet-requests-title" className="text-base font-semibold text-stone-900">
          Outlet requests
        </h2>
        <FilterButtons
          label="Request status"
          value={filter}
          options={FILTERS}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
        />
      </div>
      {body}
      {data && <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} />}
      <RejectRequestDialog
        request={rejecting}
        busy={rejecting !== null && busy === rejecting.id}
        reason={reason}
        onReasonChange={setReason}
        onCancel={() => setRejecting(null)}
        onReject={() => rejecting && void decide(rejecting, false, reason.trim())}
      />
    </section>
  );
}

/** One outlet request: who asked for which outlet, its status, dates and reason; Approve / Reject while pending. */
function OutletRequestItem({
  request: r,
  busy,
  onApprove,
  onReject,
}: {
  request: AdminOutletRequest;
  busy: boolean;
  onApprove: () => void;
  onReject: () => void;
}) {
  return (
    <ListCard
      title={
        <>
          {r.userName ?? r.userEmail} <span className="font-normal text-stone-500">→</span> {r.outletName}
        </>
      }
      badge={<Badge variant={statusBadge[r.status]}>{r.status[0].toUpperCase() + r.status.slice(1)}</Badge>}
      actions={
        r.status === 'pending' ? (
          <>
            <Button type="button" size="sm" loading={busy} onClick={onApprove} aria-label={`Approve ${r.userEmail} for ${r.outletName}`}>
              <Check className="h-4 w-4" aria-hidden />
              Approve
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={onReject}
              aria-label={`Reject ${r.userEmail} for ${r.outletName}`}
            >
              <X className="h-4 w-4" aria-hidden />
              Reject
            </Button>
          </>
        ) : undefined
      }
    >
      <p className="break-all">{r.userEmail}</p>
      <p>
        {r.outletCode}
        {r.boardName ? ` · ${r.boardName}` : ''}
      </p>
      <p className="text-xs text-stone-500">
        Requested {formatDateTime(r.createdAt)}
        {r.decidedAt && ` · ${r.status} ${formatDateTime(r.decidedAt)}${r.decidedByEmail ? ` by ${r.decidedByEmail}` : ''}`}
      </p>
      {r.reason && <p className="text-xs text-stone-500">Reason: {r.reason}</p>}
    </ListCard>
  );
}

/** Reject outlet request: an optional reason (at most 500 characters) mailed to the requester. */
function RejectRequestDialog({
  request,
  busy,
  reason,
  onReasonChange,
  onCancel,
  onReject,
}: {
  request: AdminOutletRequest | null;
  busy: boolean;
  reason: string;
  onReasonChange: (reason: string) => void;
  onCancel: () => void;
  onReject: () => void;
}) {
  return (
    <Dialog
      open={request !== null}
      onOpenChange={(o) => {
        if (!o) onCancel();
      }}
      title="Reject outlet request"
      description={request ? `${request.userName ?? request.userEmail} asked for access to ${request.outletName}.` : undefined}
      footer={
        <>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="button" variant="destructive" loading={busy} onClick={onReject}>
            {busy ? 'Rejecting...' : 'Reject request'}
          </Button>
        </>
      }
    >
      <Field id="reject-reason" label="Reason (optional, sent to the requester)" hint={`${reason.length}/500`}>
        <textarea
          id="reject-reason"
          aria-describedby="reject-reason-hint"
          maxLength={500}
          rows={3}
          value={reason}
          onChange={(e) => onReasonChange(e.target.value)}
          className="block w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-sm text-stone-900 focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30"
        />
      </Field>
    </Dialog>
  );
}
