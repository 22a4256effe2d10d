import type { Problem } from '@portal/contracts';

/**
 * A failed API call: HTTP status plus the problem body (code, title, detail, field errors). Lives apart
 * from lib/api (which re-exports it) so `instanceof ApiError` checks on the first page load need neither
 * axios nor zod (issue 15 §4).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
    /** The raw answer body, for a problem's extension members (e.g. `nearestValid` of a case-rule refusal). */
    readonly body?: unknown,
  ) {
    super(problem.detail ?? problem.title);
  }
  get code() {
    return this.problem.code;
  }
  /** Message for a field, from the problem's errors[] (matching path). */
  fieldError(path: string) {
    return this.problem.errors?.find((e) => e.path === path)?.message;
  }
}
