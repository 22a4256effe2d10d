import { PROBLEM_CODES, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 401: not signed in, or the session or credentials are not valid. */
export class UnauthenticatedError extends AppError {
  constructor(detail = 'Authentication required', code: ProblemCode = PROBLEM_CODES.unauthenticated) {
    super(401, code, 'Unauthorized', detail);
  }
}
