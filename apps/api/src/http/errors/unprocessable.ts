import { PROBLEM_CODES, type FieldError, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 422: well-formed input a business rule refuses. */
export class UnprocessableError extends AppError {
  constructor(detail: string, code: ProblemCode = PROBLEM_CODES.validationFailed, errors?: FieldError[]) {
    super(422, code, 'Unprocessable Content', detail, errors);
  }
}
