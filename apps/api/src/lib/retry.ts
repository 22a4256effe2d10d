/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

export interface RetryUntilOptions<T> {
  /** Whether an answer ends the loop (the awaited state is reached, or the answer is final). */
  done: (value: T) => boolean;
  /** Wait between two tries, in milliseconds. */
  delayMs: number;
  /** Time (epoch milliseconds) after which no further try is made; default none. */
  deadline?: number;
}

/**
 * The one retry loop of the API's tools (the web client has its own in apps/web/src/lib/retry.ts): calls
 * `fn` until `done` accepts its answer or `deadline` has passed, `delayMs` apart, and returns the last
 * answer, so the caller tells "done" from "gave up" with `done(result)`. A rejection of `fn` ends the loop
 * at once: catch inside `fn` whatever failure may be tried again.
 */
export async function retryUntil<T>(fn: () => Promise<T>, { done, delayMs, deadline = Infinity }: RetryUntilOptions<T>): Promise<T> {
  for (;;) {
    const value = await fn();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(delayMs);
  }
}
