import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 413: a body or an uploaded file over its limit. */
export class PayloadTooLargeError extends AppError<ProblemCodeOf<413>> {
  constructor(detail: string, code: ProblemCodeOf<413> = PROBLEM_CODES.payloadTooLarge, title = 'Payload Too Large') {
    super(413, code, title, detail);
  }
}
