import { Router } from 'express';
import type { AppContext } from '../../context';

/** /api/v1/carts routes (not built yet). */
export function cartsRoutes(_ctx: AppContext) {
  const r = Router();
  return r;
}
