import { clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';
import { cn, warmClassMerge } from './cn';

describe('cn', () => {
  it("resolves Tailwind conflicts as tailwind-merge's twMerge over clsx does (last wins)", () => {
    const cases: unknown[][] = [
      ['px-2 py-1', 'px-4'],
      ['text-sm text-stone-500', false, 'text-brand-900'],
      ['h-9 w-9', { 'h-10': true, 'w-10': false }],
      ['rounded-md border', ['border-red-500', 'rounded-none']],
      ['flex-1 grid-cols-2', 'hidden md:flex'],
    ];
    for (const c of cases) {
      const joined = cn(...(c as Parameters<typeof cn>));
      expect(joined).toBe(twMerge(clsx(c as Parameters<typeof clsx>)));
    }
    expect(cn('px-2', 'px-4')).toBe('px-4');
    expect(cn('h-9 w-9', { 'h-10': true, 'w-10': false })).toBe('w-9 h-10');
    expect(cn('text-sm', undefined, null, 'font-semibold')).toBe('text-sm font-semibold');
  });

  it('warmClassMerge calls back in a later task, after the merge is ready', async () => {
    const order: string[] = [];
    const done = new Promise<void>((resolve) =>
      warmClassMerge(() => {
        order.push('then');
        resolve();
      }),
    );
    order.push('sync');
    await done;
    expect(order).toEqual(['sync', 'then']);
    expect(cn('p-1 p-2')).toBe('p-2');
  });
});
