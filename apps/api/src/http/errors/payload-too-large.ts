import { PROBLEM_CODES, type ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 413: a body or an uploaded file over its limit. */
export class PayloadTooLargeError extends AppError {
  constructor(detail: string, code: ProblemCode = PROBLEM_CODES.payloadTooLarge, title = 'Payload Too Large') {
    super(413, code, title, detail);
  }
}
