import { useState } from 'react';
import * as Collapsible from '@radix-ui/react-collapsible';
import { ChevronDown, Plus } from 'lucide-react';
import { OUTLET_REQUEST_MESSAGES } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Badge, Spinner } from '@/components/ui/feedback';
import { Label } from '@/components/ui/field';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { notify } from '@/components/ui/toaster';
import { cn } from '@/lib/cn';
import { useRequestableOutlets } from '../api/get-requestable-outlets';
import { requestOutlet } from '../api/request-outlet';

type RequestableOutlet = NonNullable<ReturnType<typeof useRequestableOutlets>['data']>['items'][number];

/**
 * Request more Outlets (spec 000 §2): a collapsible list of requestable outlets (active, not yet
 * assigned), each with its board name; submit is disabled until one is chosen; Cancel closes and clears.
 */
export function RequestOutletsPanel() {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const { data, error, isLoading, mutate } = useRequestableOutlets(open);
  const items = data?.items ?? [];

  const close = () => {
    setOpen(false);
    setChosen('');
  };
  const submit = async () => {
    const outlet = items.find((o) => String(o.outletId) === chosen);
    if (!outlet) {
      notify({ title: OUTLET_REQUEST_MESSAGES.invalidOutlet, variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      await requestOutlet({ outletId: outlet.outletId });
      notify({
        title: 'Request submitted successfully',
        description: `You requested access to ${outlet.outletName}. You will be notified when it is approved, and the outlet will then appear in your outlet menu.`,
        variant: 'success',
      });
      close();
      void mutate();
    } catch (e) {
      notify({
        title: 'Error',
        description: (e instanceof Error && e.message) || 'Failed to submit outlet request. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Collapsible.Root open={open} onOpenChange={(o) => (o ? setOpen(true) : close())}>
      <Collapsible.Trigger asChild>
        <Button variant="outline" className="w-full sm:w-auto">
          <Plus className="h-4 w-4" aria-hidden />
          Request more Outlets
          <ChevronDown className={cn('h-4 w-4 transition-transform', open && 'rotate-180')} aria-hidden />
        </Button>
      </Collapsible.Trigger>
      <Collapsible.Content className="mt-3 rounded-lg border border-stone-200 bg-stone-50 p-4">
        {isLoading ? (
          <Spinner label="Loading outlets" />
        ) : error ? (
          <p className="text-sm text-red-700">{error.message}</p>
        ) : items.length === 0 ? (
          <p className="text-sm text-stone-500">No additional outlets available.</p>
        ) : (
          <OutletChoices items={items} chosen={chosen} onChoose={setChosen} />
        )}
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button type="button" variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button
            type="button"
            disabled={!chosen}
            loading={busy}
            onClick={() => {
              void submit();
            }}
          >
            {busy ? 'Submitting...' : 'Submit Request'}
          </Button>
        </div>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

/** The requestable outlets as a radio group, each with its board. */
function OutletChoices({ items, chosen, onChoose }: { items: RequestableOutlet[]; chosen: string; onChoose: (outletId: string) => void }) {
  return (
    <fieldset>
      <legend className="mb-3 text-sm font-medium text-stone-800">Choose the outlet you need access to</legend>
      <RadioGroup value={chosen} onValueChange={onChoose} className="max-h-72 gap-1 overflow-y-auto">
        {items.map((o) => {
          const id = `request-outlet-${o.outletId}`;
          return (
            <div
              key={o.outletId}
              className={cn(
                'flex items-center gap-3 rounded-md px-2 py-2 hover:bg-white',
                chosen === String(o.outletId) && 'bg-white ring-1 ring-brand-200',
              )}
            >
              <RadioGroupItem id={id} value={String(o.outletId)} />
              <Label htmlFor={id} className="flex min-w-0 flex-1 cursor-pointer flex-wrap items-center gap-x-2 gap-y-1 font-normal">
                <span className="font-medium text-stone-900">{o.outletName}</span>
                {o.boardName && <Badge variant="outline">{o.boardName}</Badge>}
              </Label>
            </div>
          );
        })}
      </RadioGroup>
    </fieldset>
  );
}
