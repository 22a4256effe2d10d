import { Router } from 'express';
import type { AppContext } from '../../context';

/** /api/v1/stores routes (not built yet). */
export function storesRoutes(_ctx: AppContext) {
  const r = Router();
  return r;
}
