import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 429 with Retry-After (whole seconds, at least 1). */
export class TooManyRequestsError extends AppError<ProblemCodeOf<429>> {
  constructor(retryAfterSeconds: number, detail = 'Too many requests') {
    super(429, PROBLEM_CODES.rateLimited, 'Too many requests', detail, undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}
