import * as M from '@radix-ui/react-dropdown-menu';
import { cn } from '@/lib/cn';

export const DropdownMenu = M.Root;
export const DropdownMenuTrigger = M.Trigger;
export const DropdownMenuGroup = M.Group;
export const DropdownMenuContent = ({ className, sideOffset = 6, ...p }: M.DropdownMenuContentProps) => (
  <M.Portal>
    <M.Content
      sideOffset={sideOffset}
      className={cn('z-50 min-w-48 overflow-hidden rounded-lg border border-stone-200 bg-white p-1 shadow-lg', className)}
      {...p}
    />
  </M.Portal>
);
export const DropdownMenuItem = ({ className, ...p }: M.DropdownMenuItemProps) => (
  <M.Item
    className={cn(
      'flex cursor-pointer select-none items-center gap-2 rounded-md px-2.5 py-2 text-sm text-stone-800 outline-none data-[highlighted]:bg-stone-100 data-[disabled]:pointer-events-none data-[disabled]:opacity-60',
      className,
    )}
    {...p}
  />
);
export const DropdownMenuLabel = ({ className, ...p }: M.DropdownMenuLabelProps) => (
  <M.Label className={cn('px-2.5 py-1.5 text-xs font-semibold uppercase tracking-wide text-stone-500', className)} {...p} />
);
export const DropdownMenuSeparator = ({ className, ...p }: M.DropdownMenuSeparatorProps) => (
  <M.Separator className={cn('my-1 h-px bg-stone-100', className)} {...p} />
);
