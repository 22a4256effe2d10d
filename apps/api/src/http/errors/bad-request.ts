import { PROBLEM_CODES, type FieldError, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/**
 * 400: input the route cannot take (default code validation_failed); field messages in `errors`; a title
 * other than 'Bad Request' where the answer has its own (cart_empty: 'Cart is empty').
 */
export class BadRequestError extends AppError<ProblemCodeOf<400>> {
  constructor(detail: string, errors?: FieldError[], code: ProblemCodeOf<400> = PROBLEM_CODES.validationFailed, title = 'Bad Request') {
    super(400, code, title, detail, errors);
  }
}
