import { PROBLEM_CODES, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 409: the row's state does not allow this (already used, already decided, taken). */
export class ConflictError extends AppError {
  constructor(detail: string, code: ProblemCode = PROBLEM_CODES.conflict) {
    super(409, code, 'Conflict', detail);
  }
}
