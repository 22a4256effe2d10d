import { PROBLEM_CODES, type FieldError, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 400: input the route cannot take (default code validation_failed); field messages in `errors`. */
export class BadRequestError extends AppError {
  constructor(detail: string, errors?: FieldError[], code: ProblemCode = PROBLEM_CODES.validationFailed) {
    super(400, code, 'Bad Request', detail, errors);
  }
}
