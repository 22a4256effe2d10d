import type { FieldError, ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 422: a well-formed request a business rule refuses, under a code of its own (never validation_failed: that is 400). */
export class UnprocessableError extends AppError<ProblemCodeOf<422>> {
  constructor(detail: string, code: ProblemCodeOf<422>, errors?: FieldError[]) {
    super(422, code, 'Unprocessable Content', detail, errors);
  }
}
