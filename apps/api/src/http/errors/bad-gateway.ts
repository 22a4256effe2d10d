import type { ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 502: an outbound service (the payment gateway) failed. */
export class BadGatewayError extends AppError {
  constructor(detail: string, code: ProblemCode, title = 'Bad Gateway') {
    super(502, code, title, detail);
  }
}
