import type { ProblemCode } from '@portal/contracts';
import { AppError } from './app-error';

/** 410: it existed but is over (an expired checkout session or invitation). */
export class GoneError extends AppError {
  constructor(detail: string, code: ProblemCode) {
    super(410, code, 'Gone', detail);
  }
}
