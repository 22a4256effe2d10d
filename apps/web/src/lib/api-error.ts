import type { Problem } from '@portal/contracts';

/**
 * A failed API call: HTTP status plus the problem body (code, title, detail, field errors). Lives apart
 * from lib/api (which re-exports it) so `instanceof ApiError` checks on the first page load need neither
 * ky nor zod (issue 15 §4).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
    /** The raw problem body, with its extension members (e.g. `shortfallMl` of below_delivery_minimum, `nearestValid` of a case-rule refusal). */
    readonly body?: unknown,
  ) {
    super(problem.detail ?? problem.title);
  }
  /** A numeric extension member of the problem body (RFC 9457 §3.2), or undefined when absent or not a number. */
  extension(name: string): number | undefined {
    const v = typeof this.body === 'object' && this.body !== null ? (this.body as Record<string, unknown>)[name] : undefined;
    const n = typeof v === 'string' ? Number(v) : v;
    return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
  }
  get code() {
    return this.problem.code;
  }
  /** Message for a field, from the problem's errors[] (matching path). */
  fieldError(path: string) {
    return this.problem.errors?.find((e) => e.path === path)?.message;
  }
}
