import { useState } from 'react';
import { MessageSquareWarning } from 'lucide-react';
import type { Order } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Badge, Skeleton } from '@/components/ui/feedback';
import { formatDateTime, formatMoney } from '@/lib/format';
import { CLAIM_OUTCOME_LABELS, CLAIM_REASON_LABELS, useOrderClaims, type Claim } from '../../api/claims';
import { ReportProblemDialog } from './report-problem-dialog';
import { ResolveClaimDialog } from './resolve-claim-dialog';

/** Claims may be opened within 48 hours of completion (issue 28 §4). */
export const CLAIM_WINDOW_MS = 48 * 3_600_000;

/** True when the order is completed and (when the completion time is known) within the 48 h window. */
export function canReportProblem(order: Order & { completedAt?: string | null }, now = Date.now()): boolean {
  if (order.status !== 'completed') return false;
  const done = order.completedAt ? Date.parse(order.completedAt) : NaN;
  return Number.isNaN(done) || now - done <= CLAIM_WINDOW_MS;
}

/**
 * An order's claims in its details (issue 28 §4), for both sides: each claim's lines, note, status and the store's
 * outcome, oldest first, as part of the order's history. The buyer gets "Report a problem" on a completed order
 * (`canReport`); store staff (`canResolve`) resolve each open claim.
 */
export function ClaimsSection({ order, canReport, canResolve }: { order: Order; canReport: boolean; canResolve: boolean }) {
  const claims = useOrderClaims(order.status === 'completed' ? order.id : null);
  const [reporting, setReporting] = useState(false);
  const [resolving, setResolving] = useState<Claim | null>(null);
  const list = claims.data?.items ?? [];
  const reportable = canReport && canReportProblem(order);
  if (!reportable && !claims.isLoading && list.length === 0) return null;
  const nameOf = (code: string) => order.items.find((i) => i.itemCode === code)?.itemName ?? code;
  return (
    <section aria-labelledby={`claims-${order.id}`} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`claims-${order.id}`} className="font-semibold text-stone-900">
          Claims
        </h3>
        {reportable && (
          <Button variant="outline" size="sm" onClick={() => setReporting(true)}>
            <MessageSquareWarning className="h-4 w-4" aria-hidden />
            Report a problem
          </Button>
        )}
      </div>
      {claims.isLoading ? (
        <Skeleton className="h-12 w-full" />
      ) : claims.error && !claims.data ? (
        <p className="text-sm text-red-700">The claims could not be loaded.</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-stone-500">No problems reported. Report damaged, leaking, wrong or missing bottles within 48 hours.</p>
      ) : (
        <ol className="space-y-3" aria-label="Claims">
          {list.map((c) => (
            <li key={c.id} className="rounded-md border border-stone-200 p-3 text-sm" data-testid="claim">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium text-stone-900">Claim {c.id}</span>
                <Badge variant={c.status === 'open' ? 'warning' : 'success'}>{c.status === 'open' ? 'Open' : 'Resolved'}</Badge>
                {c.openedAt && <span className="text-stone-500">Opened {formatDateTime(c.openedAt)}</span>}
                {canResolve && c.status === 'open' && (
                  <Button size="sm" className="ml-auto" onClick={() => setResolving(c)}>
                    Resolve
                  </Button>
                )}
              </div>
              <ul className="mt-2 list-disc space-y-0.5 pl-5 text-stone-700">
                {c.lines.map((l, i) => (
                  <li key={`${l.itemCode}-${i}`}>
                    {l.quantity} × {l.itemName ?? nameOf(l.itemCode)} ({l.itemCode}) · {CLAIM_REASON_LABELS[l.reason]}
                    {l.outcome ? ` · ${CLAIM_OUTCOME_LABELS[l.outcome]}` : ''}
                  </li>
                ))}
              </ul>
              {c.note && <p className="mt-1 text-stone-600">“{c.note}”</p>}
              {c.status !== 'open' && (
                <p className="mt-2 border-t border-stone-100 pt-2 text-stone-800" data-testid="claim-resolution">
                  {c.outcome ? CLAIM_OUTCOME_LABELS[c.outcome] : 'Resolved'}
                  {c.creditAmount && Number(c.creditAmount) > 0 ? ` ${formatMoney(c.creditAmount)}` : ''}
                  {c.resolvedAt ? ` · ${formatDateTime(c.resolvedAt)}` : ''}
                  {c.resolutionNote ? ` · ${c.resolutionNote}` : ''}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {canReport && (
        <ReportProblemDialog order={order} open={reporting} onClose={() => setReporting(false)} onOpened={() => void claims.mutate()} />
      )}
      {canResolve && <ResolveClaimDialog claim={resolving} onClose={() => setResolving(null)} onResolved={() => void claims.mutate()} />}
    </section>
  );
}
