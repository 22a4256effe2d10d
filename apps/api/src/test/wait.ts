/**
 * Polls `probe` every 200 ms until it answers a truthy value, and returns it; after `timeoutMs` it throws
 * "timed out waiting for <what>" (for work done by a queue worker: a mail, a webhook delivery).
 */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
