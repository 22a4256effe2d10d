import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 403: signed in but without the permission (or a rule forbids this action). */
export class ForbiddenError extends AppError<ProblemCodeOf<403>> {
  constructor(detail = "You don't have permission to do this.", code: ProblemCodeOf<403> = PROBLEM_CODES.forbidden) {
    super(403, code, 'Forbidden', detail);
  }
}
