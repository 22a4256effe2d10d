import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 409: the row's state does not allow this (already used, already decided, taken). */
export class ConflictError extends AppError<ProblemCodeOf<409>> {
  constructor(detail: string, code: ProblemCodeOf<409> = PROBLEM_CODES.conflict) {
    super(409, code, 'Conflict', detail);
  }
}
