import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 500 with a stable code the client can act on (e.g. payment_unconfirmed); unexpected errors need no class. */
export class InternalError extends AppError<ProblemCodeOf<500>> {
  constructor(detail: string, code: ProblemCodeOf<500> = PROBLEM_CODES.internalError, title = 'Internal Server Error') {
    super(500, code, title, detail);
  }
}
