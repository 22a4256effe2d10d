import { PROBLEM_CODES, type FieldError, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/**
 * 400: input the route cannot take (default code validation_failed); field messages in `errors`; a title
 * other than 'Bad Request' where the answer has its own (cart_empty: 'Cart is empty').
 */
export class BadRequestError extends AppError {
  constructor(detail: string, errors?: FieldError[], code: ProblemCode = PROBLEM_CODES.validationFailed, title = 'Bad Request') {
    super(400, code, title, detail, errors);
  }
}
