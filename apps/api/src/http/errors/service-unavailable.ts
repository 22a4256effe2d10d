import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 503: a dependency (the database, the import queue) is unavailable; Retry-After when a wait is known. */
export class ServiceUnavailableError extends AppError<ProblemCodeOf<503>> {
  constructor(detail: string, code: ProblemCodeOf<503> = PROBLEM_CODES.serviceUnavailable, retryAfterSeconds?: number) {
    super(
      503,
      code,
      'Service Unavailable',
      detail,
      undefined,
      retryAfterSeconds ? { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } : undefined,
    );
  }
}
