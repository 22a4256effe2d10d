import type { FieldError, ProblemCode } from '@portal/contracts';

/**
 * The base of the typed errors services throw; the error middleware (http/problem.ts) answers each as
 * RFC 9457 problem+json with its status, stable `code` (a PROBLEM_CODES value), title and detail.
 * Handlers never build error bodies. Prefer a subclass of this folder (one per status).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly title: string,
    detail?: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? title);
  }
}
