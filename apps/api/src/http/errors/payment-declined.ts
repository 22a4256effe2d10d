import { PROBLEM_CODES, type ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 402: the gateway declined the card; `detail` is the gateway's message, `orderId` the failed order kept. */
export class PaymentDeclinedError extends AppError<ProblemCodeOf<402>> {
  constructor(
    detail: string,
    readonly orderId?: number,
  ) {
    super(402, PROBLEM_CODES.paymentDeclined, 'Payment Failed', detail);
  }
}
