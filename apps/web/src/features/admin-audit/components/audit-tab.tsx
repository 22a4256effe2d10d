import { useState, type FormEvent } from 'react';
import { History } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState, PageSpinner } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useAuditLog, type AuditFilter } from '../api/audit-log';

const when = (iso: string) => new Date(iso).toLocaleString();
const summary = (d: Record<string, unknown> | null) =>
  d
    ? Object.entries(d)
        .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(' · ')
    : '';

/** The filter fields: key, label, placeholder. */
const FILTERS = [
  ['actor', 'Actor', 'email or user id'],
  ['action', 'Action', 'e.g. user.'],
  ['entity', 'Entity', 'e.g. user or role:3'],
] as const;

/**
 * The Audit tab (issue 12 §9): who did what to whom, when and from which IP, newest first, filterable by
 * actor (email or user id), action (prefix, e.g. "user.") and entity ("user" or "user:<id>"), 50 at a time.
 */
export function AuditTab() {
  const [draft, setDraft] = useState<AuditFilter>({});
  const [filter, setFilter] = useState<AuditFilter>({});
  const { entries, hasMore, isLoading, isLoadingMore, error, loadMore, reload } = useAuditLog(filter);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilter(draft);
  };

  return (
    <section aria-labelledby="admin-audit-title" className="space-y-4">
      <div>
        <h2 id="admin-audit-title" className="text-lg font-semibold text-stone-900">
          Audit log
        </h2>
        <p className="text-sm text-stone-500">Every administrative change, newest first.</p>
      </div>
      <form onSubmit={apply} className="grid gap-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end" aria-label="Filter the audit log">
        {FILTERS.map(([key, label, placeholder]) => (
          <Field key={key} id={`audit-${key}`} label={label}>
            <Input
              id={`audit-${key}`}
              placeholder={placeholder}
              value={draft[key] ?? ''}
              onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
            />
          </Field>
        ))}
        <Button type="submit">Filter</Button>
      </form>
      {isLoading ? (
        <PageSpinner text="Loading audit log..." />
      ) : error ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          <p>Failed to load the audit log: {error.message}</p>
          <Button className="mt-3" size="sm" variant="outline" onClick={() => void reload()}>
            Try again
          </Button>
        </div>
      ) : entries.length === 0 ? (
        <EmptyState icon={<History className="h-8 w-8" />} title="No audit entries" description="Nothing matches these filters." />
      ) : (
        <>
          <ol className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white" aria-label="Audit entries">
            {entries.map((e) => (
              <li key={e.id} className="grid gap-1 p-3 text-sm sm:grid-cols-[11rem_1fr]">
                <time dateTime={e.occurredAt} className="text-xs text-stone-500">
                  {when(e.occurredAt)}
                </time>
                <div className="min-w-0">
                  <p className="break-words">
                    <span className="font-medium text-stone-900">{e.actorEmail ?? 'system'}</span>{' '}
                    <span className="font-mono text-xs text-brand-800">{e.action}</span>
                    {e.entityType && (
                      <span className="text-stone-600">
                        {' '}
                        · {e.entityType} {typeof e.details?.email === 'string' ? e.details.email : (e.entityId ?? '')}
                      </span>
                    )}
                  </p>
                  <p className="break-words text-xs text-stone-500">
                    {[e.ip ? `from ${e.ip}` : null, summary(e.details)].filter(Boolean).join(' · ')}
                  </p>
                </div>
              </li>
            ))}
          </ol>
          {hasMore && (
            <div className="flex justify-center">
              <Button variant="outline" onClick={() => void loadMore()} loading={isLoadingMore}>
                Load More
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
