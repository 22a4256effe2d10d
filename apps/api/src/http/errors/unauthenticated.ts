import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 401: not signed in, or the session or credentials are not valid. */
export class UnauthenticatedError extends AppError<ProblemCodeOf<401>> {
  constructor(detail = 'Authentication required', code: ProblemCodeOf<401> = PROBLEM_CODES.unauthenticated) {
    super(401, code, 'Unauthorized', detail);
  }
}
