import { clsx, type ClassValue } from 'clsx';
import { createTailwindMerge, getDefaultConfig } from 'tailwind-merge';

/** tailwind-merge's default configuration and the merge function over it, made when first needed. */
let config: ReturnType<typeof getDefaultConfig> | undefined;
let merge: ((classes: string) => string) | undefined;
const defaultConfig = () => (config ??= getDefaultConfig());
const classMerge = () => (merge ??= createTailwindMerge(defaultConfig));

/** Joins class names and resolves Tailwind conflicts (last wins): tailwind-merge's `twMerge`, the same configuration. */
export function cn(...inputs: ClassValue[]) {
  return classMerge()(clsx(inputs));
}

/**
 * Gets tailwind-merge ready before the first render, in two tasks of its own, then calls `then` in a third: its
 * default configuration (about a third of the work), then its class map (built on the first merge). Done in one task
 * this took 31–52 ms of a throttled page load here, four times that on a phone, all of it blocking; done inside a
 * component's render React could not yield either (issue 26, total blocking time). main.tsx calls it.
 */
export function warmClassMerge(then: () => void): void {
  setTimeout(() => {
    defaultConfig();
    setTimeout(() => {
      classMerge()('');
      setTimeout(then);
    });
  });
}
