import { PROBLEM_CODES, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 403: signed in but without the permission (or a rule forbids this action). */
export class ForbiddenError extends AppError {
  constructor(detail = "You don't have permission to do this.", code: ProblemCode = PROBLEM_CODES.forbidden) {
    super(403, code, 'Forbidden', detail);
  }
}
