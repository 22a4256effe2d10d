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
