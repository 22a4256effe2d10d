import { PROBLEM_CODES, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 503: a dependency (the database, the import queue) is unavailable; Retry-After when a wait is known. */
export class ServiceUnavailableError extends AppError {
  constructor(detail: string, code: ProblemCode = PROBLEM_CODES.serviceUnavailable, retryAfterSeconds?: number) {
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
