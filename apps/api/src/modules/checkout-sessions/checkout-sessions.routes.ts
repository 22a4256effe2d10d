import { Router } from 'express';
import type { AppContext } from '../../context';

/** /api/v1/checkout-sessions routes (not built yet). */
export function checkoutSessionsRoutes(_ctx: AppContext) {
  const r = Router();
  return r;
}
