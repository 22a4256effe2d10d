import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 404: absent, or not in the caller's scope (out of scope answers exactly like absent). */
export class NotFoundError extends AppError<ProblemCodeOf<404>> {
  constructor(detail = 'Not found', code: ProblemCodeOf<404> = PROBLEM_CODES.notFound) {
    super(404, code, 'Not Found', detail);
  }
}
