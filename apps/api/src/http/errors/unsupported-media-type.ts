import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 415: a body type or encoding the route does not take. */
export class UnsupportedMediaTypeError extends AppError<ProblemCodeOf<415>> {
  constructor(detail: string) {
    super(415, PROBLEM_CODES.unsupportedMediaType, 'Unsupported Media Type', detail);
  }
}
