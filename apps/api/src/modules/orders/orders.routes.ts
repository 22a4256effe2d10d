import { Router } from 'express';
import type { AppContext } from '../../context';

/** /api/v1/orders routes (not built yet). */
export function ordersRoutes(_ctx: AppContext) {
  const r = Router();
  return r;
}
