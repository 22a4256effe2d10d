import type { ComponentProps } from 'react';
import * as T from '@radix-ui/react-tabs';
import { cn } from '@/lib/cn';

export const Tabs = T.Root;
export const TabsList = ({ className, ...p }: T.TabsListProps) => (
  <T.List className={cn('inline-flex flex-wrap gap-1 rounded-lg bg-stone-100 p-1', className)} {...p} />
);
export const TabsTrigger = ({ className, ...p }: T.TabsTriggerProps) => (
  <T.Trigger
    className={cn(
      'inline-flex items-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium text-stone-600 cursor-pointer hover:text-stone-900',
      'data-[state=active]:bg-white data-[state=active]:text-stone-900 data-[state=active]:shadow-sm',
      className,
    )}
    {...p}
  />
);
export const TabsContent = ({ className, ...p }: T.TabsContentProps) => (
  <T.Content className={cn('mt-4 focus-visible:outline-none', className)} {...p} />
);

/** The id of the trigger of `value` in tabs named `name` (give it to TabsTrigger as `id`; TabsPanel labels with it). */
export const tabTriggerId = (name: string, value: string) => `${name}-tab-${value}`;
/** The id of the one panel of tabs named `name` (give it to each TabsTrigger as `aria-controls`). */
export const tabPanelId = (name: string) => `${name}-panel`;

/**
 * The one panel of tabs that show one thing at a time (Store Orders' list for the chosen status, the admin tab):
 * a plain `role="tabpanel"` labelled by the active trigger, instead of one Radix TabsContent per tab. Radix mounts a
 * TabsContent through Presence, whose ref reads the panel's computed `animation-name` as it attaches: a forced style
 * calculation of the whole newly rendered page inside React's commit (8.9 ms of a 34 ms task on Store Orders on a
 * 2-core machine, issue 26); here the browser computes the styles in its own rendering step. The triggers of `name`
 * carry `id={tabTriggerId(name, value)}` and `aria-controls={tabPanelId(name)}` (Radix's own ids name its Content).
 */
export function TabsPanel({ name, value, className, ...p }: { name: string; value: string } & ComponentProps<'div'>) {
  return (
    <div
      role="tabpanel"
      id={tabPanelId(name)}
      aria-labelledby={tabTriggerId(name, value)}
      tabIndex={0}
      className={cn('mt-4 focus-visible:outline-none', className)}
      {...p}
    />
  );
}
