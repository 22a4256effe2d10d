import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { BookOpenCheck, Plus } from 'lucide-react';
import { FormDialog } from '@/components/admin/form-dialog';
import { Button } from '@/components/ui/button';
import { EmptyState, PageSpinner, Skeleton } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { toApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { useSelection } from '@/lib/selection';
import { createGuide, useOrderGuide, useOrderGuides } from '../api/ordering';
import type { OrderGuide, OrderGuideSummary } from '../api/schemas';
import { GuideEditor } from './guide-editor';

/** The "New guide" dialog: a name; `lines` prefilled when a suggestion is saved as a guide. */
export function NewGuideDialog({
  outletId,
  storeId,
  lines = [],
  onClose,
  onCreated,
}: {
  outletId: number;
  storeId: number;
  lines?: { itemCode: string; parQuantity: number }[];
  onClose: () => void;
  onCreated: (g: OrderGuide) => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('Enter a name');
    setBusy(true);
    try {
      const g = await createGuide(outletId, { name: name.trim(), storeId, lines });
      notify({ title: 'Guide created', description: g.name, variant: 'success' });
      onCreated(g);
    } catch (err) {
      const a = toApiError(err);
      setError(a.fieldError('name') ?? a.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      title="New order guide"
      description={lines.length ? `${lines.length} lines` : 'Name it after when you use it, e.g. "Friday restock".'}
      formId="new-guide"
      onSubmit={submit}
      onClose={onClose}
      busy={busy}
      submitLabel="Create guide"
      busyLabel="Creating..."
    >
      <Field id="new-guide-name" label="Guide name" error={error}>
        <Input {...describedBy('new-guide-name', error)} value={name} maxLength={100} autoFocus onChange={(e) => setName(e.target.value)} />
      </Field>
    </FormDialog>
  );
}

/** The guide list: one button per guide, the current one marked. */
function GuideList({ guides, current, onPick }: { guides: OrderGuideSummary[]; current: number | null; onPick: (id: number) => void }) {
  return (
    <nav aria-label="Order guides" className="print:hidden">
      <ul className="flex gap-2 overflow-x-auto pb-1 lg:flex-col lg:overflow-visible">
        {guides.map((g) => (
          <li key={g.id} className="shrink-0">
            <button
              type="button"
              aria-current={g.id === current ? 'page' : undefined}
              onClick={() => onPick(g.id)}
              className={cn(
                'w-full rounded-md border px-3 py-2 text-left text-sm cursor-pointer focus-visible:outline-2 focus-visible:outline-brand-600',
                g.id === current
                  ? 'border-brand-600 bg-brand-50 font-semibold text-brand-900'
                  : 'border-stone-200 bg-white text-stone-800 hover:bg-stone-50',
              )}
            >
              {g.name}
              <span className="block text-xs font-normal text-stone-500">{g.lineCount === 1 ? '1 line' : `${g.lineCount} lines`}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * /order-guides (issue 27 §1): the outlet's guides for the current store, shared by its buyers; pick one to edit,
 * print or fill the cart from; create a new one.
 */
export function OrderGuidesPage() {
  const { outlet, store, loading } = useSelection();
  const list = useOrderGuides(outlet?.outletId ?? null, store?.id ?? null);
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const guides = list.guides ?? [];
  const wanted = Number(params.get('guide')) || null;
  const currentId = guides.some((g) => g.id === wanted) ? wanted : (guides[0]?.id ?? null);
  const detail = useOrderGuide(currentId);
  const pick = (id: number | null) => setParams(id ? { guide: String(id) } : {}, { replace: true });

  if (loading) return <PageSpinner text="Loading..." />;
  if (!outlet || !store)
    return <EmptyState title="Choose an outlet and store" description="Order guides belong to an outlet and a store." />;
  const storeLabel = `${outlet.outletName} · ${store.name}`;
  return (
    <div className="mx-auto max-w-6xl space-y-4 px-3 py-6 sm:px-6 print:p-0">
      <header className="flex flex-wrap items-end justify-between gap-3 print:hidden">
        <div>
          <h1 className="text-2xl font-semibold text-stone-900">Order guides</h1>
          <p className="text-sm text-stone-600">{storeLabel} — shared by everyone who orders for this outlet.</p>
        </div>
        <Button onClick={() => setCreating(true)}>
          <Plus className="h-4 w-4" aria-hidden /> New guide
        </Button>
      </header>
      {list.error ? (
        <EmptyState
          title="Failed to load order guides"
          description={list.error.message}
          action={
            <Button variant="outline" onClick={() => void list.mutate()}>
              Try again
            </Button>
          }
        />
      ) : list.isLoading ? (
        <div className="space-y-2" aria-busy>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : guides.length === 0 ? (
        <EmptyState
          icon={<BookOpenCheck className="h-8 w-8" />}
          title="No order guides yet"
          description="A guide lists what you reorder every week with the par you want on the shelf."
          action={<Button onClick={() => setCreating(true)}>Create a guide</Button>}
        />
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-[14rem_minmax(0,1fr)]">
          <GuideList guides={guides} current={currentId} onPick={pick} />
          {detail.data ? (
            <GuideEditor
              key={detail.data.id}
              guide={detail.data}
              storeLabel={storeLabel}
              onChanged={() => Promise.all([list.mutate(), detail.mutate()])}
              onDeleted={() => {
                pick(null);
                void list.mutate();
              }}
            />
          ) : detail.error ? (
            <EmptyState title="Failed to load the guide" description={detail.error.message} />
          ) : (
            <Skeleton className="h-40 w-full" />
          )}
        </div>
      )}
      {creating && (
        <NewGuideDialog
          outletId={outlet.outletId}
          storeId={store.id}
          onClose={() => setCreating(false)}
          onCreated={(g) => {
            setCreating(false);
            void list.mutate();
            pick(g.id);
          }}
        />
      )}
    </div>
  );
}
