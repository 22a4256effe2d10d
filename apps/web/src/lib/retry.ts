/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

export interface RetryOptions {
  /** Tries in all (the first call included). */
  attempts: number;
  /** Wait between two tries, in milliseconds. */
  delayMs: number;
  /** Whether a failure may be tried again (default: every failure). */
  shouldRetry?: (error: unknown) => boolean;
  /** Checked before each try: false stops (a component that unmounted); default always true. */
  alive?: () => boolean;
}

/**
 * The one retry loop of the web client: calls `fn` until it resolves, at most `attempts` times, `delayMs`
 * apart. Rejects with the last failure, at once when `shouldRetry` says no, or when `alive()` turns false
 * (with an Error 'retry stopped' if no try was made).
 */
export async function retry<T>(
  fn: () => Promise<T>,
  { attempts, delayMs, shouldRetry = () => true, alive = () => true }: RetryOptions,
): Promise<T> {
  let last: unknown = new Error('retry stopped');
  for (let i = 0; i < attempts && alive(); i += 1) {
    try {
      return await fn();
    } catch (e) {
      last = e;
      if (!shouldRetry(e) || i === attempts - 1) break;
      await sleep(delayMs);
    }
  }
  throw last;
}
