import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names and resolves Tailwind conflicts (last wins). */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/**
 * Builds tailwind-merge's class map now (its first call does, 10–15 ms here, four times that on a phone) so the
 * first render that calls cn() does not: main.tsx calls it in a task of its own before the first render (issue 26).
 */
export function warmClassMerge(): void {
  twMerge('');
}
