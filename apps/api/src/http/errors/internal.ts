import { PROBLEM_CODES, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 500 with a stable code the client can act on (e.g. payment_unconfirmed); unexpected errors need no class. */
export class InternalError extends AppError {
  constructor(detail: string, code: ProblemCode = PROBLEM_CODES.internalError, title = 'Internal Server Error') {
    super(500, code, title, detail);
  }
}
