import type { ReactNode } from 'react';
import { LayoutGrid, List } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { ViewMode } from '../hooks/use-shop-view';

/** Grid / list toggle (spec 001 §2): two pressed-state buttons in a group named "View". */
export function ViewToggle({ value, onChange }: { value: ViewMode; onChange: (v: ViewMode) => void }) {
  const item = (mode: ViewMode, label: string, icon: ReactNode) => (
    <button
      type="button"
      onClick={() => onChange(mode)}
      aria-pressed={value === mode}
      aria-label={label}
      title={label}
      className={cn(
        'flex h-9 w-9 items-center justify-center rounded-md cursor-pointer transition-colors',
        value === mode ? 'bg-white text-brand-800 shadow-sm' : 'text-stone-500 hover:text-stone-900',
      )}
    >
      {icon}
    </button>
  );
  return (
    <div className="flex rounded-lg bg-stone-100 p-0.5" role="group" aria-label="View">
      {item('grid', 'Grid view', <LayoutGrid className="h-4 w-4" aria-hidden />)}
      {item('list', 'List view', <List className="h-4 w-4" aria-hidden />)}
    </div>
  );
}
