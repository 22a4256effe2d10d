import type { FieldError, PROBLEM_STATUS, ProblemCode } from '@portal/contracts';

/**
 * The base of the typed errors services throw; the error middleware (http/problem.ts) answers each as
 * RFC 9457 problem+json with its status, stable `code` (a PROBLEM_CODES value), title and detail.
 * Handlers never build error bodies. Prefer a subclass of this folder (one per status). `status` must be the
 * code's one status (contracts PROBLEM_STATUS), which the compiler checks.
 */
/** A problem extension member: a primitive, or a flat object of primitives (e.g. a quantity rule). */
export type ProblemExtension = string | number | boolean | null | { [key: string]: string | number | boolean | null };

export class AppError<C extends ProblemCode = ProblemCode> extends Error {
  /** RFC 9457 extension members answered beside the standard ones (e.g. `newestSeq`, `removing`). */
  extensions?: Record<string, ProblemExtension>;

  constructor(
    readonly status: (typeof PROBLEM_STATUS)[C],
    readonly code: C,
    readonly title: string,
    detail?: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? title);
  }

  /** Adds RFC 9457 extension members to the answer (never overriding type, title, status, code or detail); returns this. */
  with(extensions: Record<string, ProblemExtension>): this {
    this.extensions = { ...this.extensions, ...extensions };
    return this;
  }
}
