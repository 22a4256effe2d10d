import { PROBLEM_CODES, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 415: a body type or encoding the route does not take. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(detail: string, code: ProblemCode = PROBLEM_CODES.unsupportedMediaType) {
    super(415, code, 'Unsupported Media Type', detail);
  }
}
