import { Router } from 'express';
import type { AppContext } from '../../context';

/** /api/v1/me routes (not built yet). */
export function meRoutes(_ctx: AppContext) {
  const r = Router();
  return r;
}
