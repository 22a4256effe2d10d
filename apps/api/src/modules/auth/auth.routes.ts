import { Router } from 'express';
import type { AppContext } from '../../context';

/** /api/v1/auth routes (not built yet). */
export function authRoutes(_ctx: AppContext) {
  const r = Router();
  return r;
}
