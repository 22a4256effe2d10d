import { Check, ChevronDown, ChevronRight } from 'lucide-react';
import { DropdownMenuItem, DropdownMenuLabel } from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/feedback';
import { cn } from '@/lib/cn';

export interface MenuChoice {
  id: number;
  label: string;
  detail?: string | null;
}

/**
 * An OUTLETS or STORES section of the profile menu (spec 000 §2). With more than one choice the title
 * toggles the section: expanded shows every choice, collapsed only the current one. The current choice
 * is highlighted and disabled; with one choice only the current one shows; with none, `emptyText`.
 */
export function MenuSection({
  title,
  choices,
  currentId,
  emptyText,
  loading,
  expanded,
  onToggle,
  onChoose,
}: {
  title: string;
  choices: MenuChoice[];
  currentId: number | null;
  emptyText: string;
  loading?: boolean;
  expanded: boolean;
  onToggle: () => void;
  onChoose: (choice: MenuChoice) => void;
}) {
  const collapsible = choices.length > 1;
  const shown = collapsible && !expanded ? choices.filter((c) => c.id === currentId) : choices;
  const titleClass = 'text-xs font-semibold uppercase tracking-wide text-stone-500';
  return (
    <div role="group" aria-label={title}>
      {collapsible ? (
        <DropdownMenuItem
          aria-expanded={expanded}
          className={cn(titleClass, 'justify-between py-1.5')}
          onSelect={(e) => {
            e.preventDefault();
            onToggle();
          }}
        >
          <span>{title}</span>
          <span className="flex items-center gap-1 font-normal normal-case tracking-normal">
            {choices.length}
            {expanded ? <ChevronDown className="h-4 w-4" aria-hidden /> : <ChevronRight className="h-4 w-4" aria-hidden />}
          </span>
        </DropdownMenuItem>
      ) : (
        <DropdownMenuLabel>{title}</DropdownMenuLabel>
      )}
      {loading && choices.length === 0 ? (
        <div className="space-y-2 px-2.5 py-2" aria-hidden>
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-4 w-1/2" />
        </div>
      ) : choices.length === 0 ? (
        <p className="px-2.5 py-1.5 text-sm text-stone-500">{emptyText}</p>
      ) : (
        shown.map((c) => {
          const current = c.id === currentId;
          return (
            <DropdownMenuItem
              key={c.id}
              disabled={current}
              aria-current={current ? 'true' : undefined}
              onSelect={() => onChoose(c)}
              className={cn('items-start pl-2.5', current && 'bg-brand-50 text-brand-900 data-[disabled]:opacity-100')}
            >
              <span className="mt-0.5 h-4 w-4 shrink-0">{current && <Check className="h-4 w-4 text-brand-700" aria-hidden />}</span>
              <span className="min-w-0 flex-1">
                <span data-choice-label className={cn('block break-words', current && 'font-medium')}>
                  {c.label}
                </span>
                {c.detail && <span className="block truncate text-xs text-stone-500">{c.detail}</span>}
              </span>
            </DropdownMenuItem>
          );
        })
      )}
    </div>
  );
}
