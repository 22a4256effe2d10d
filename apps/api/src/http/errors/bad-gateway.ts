import type { ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 502: an outbound service (the payment gateway) failed. */
export class BadGatewayError extends AppError<ProblemCodeOf<502>> {
  constructor(detail: string, code: ProblemCodeOf<502>, title = 'Bad Gateway') {
    super(502, code, title, detail);
  }
}
