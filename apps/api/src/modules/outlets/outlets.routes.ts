import { Router } from 'express';
import type { AppContext } from '../../context';

/** /api/v1/outlets routes (not built yet). */
export function outletsRoutes(_ctx: AppContext) {
  const r = Router();
  return r;
}
