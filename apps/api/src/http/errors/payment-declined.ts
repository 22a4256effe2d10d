import { PROBLEM_CODES } from '@portal/contracts';
import { AppError } from './app-error';

/** 402: the gateway declined the card; `detail` is the gateway's message, `orderId` the failed order kept. */
export class PaymentDeclinedError extends AppError {
  constructor(
    detail: string,
    readonly orderId?: number,
  ) {
    super(402, PROBLEM_CODES.paymentDeclined, 'Payment Failed', detail);
  }
}
