import type { ProblemCodeOf } from '@portal/contracts';
import { AppError } from './app-error';

/** 410: it existed but is over (an expired checkout session or invitation). */
export class GoneError extends AppError<ProblemCodeOf<410>> {
  constructor(detail: string, code: ProblemCodeOf<410>) {
    super(410, code, 'Gone', detail);
  }
}
