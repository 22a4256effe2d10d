import { intIdSchema, type OutletScheduleOverride, type OutletScheduleOverrideBody } from '@portal/contracts';
import type { Db } from '../../db/knex';
import { BadRequestError, NotFoundError } from '../../http/errors';
import { auditActor, type Actor } from '../access/access.service';
import { recordAudit } from '../audit/audit.service';
import * as repo from './schedules.repository';

/**
 * Per-outlet overrides of a store's order schedule (issue 28 §1): order days, cut-off, lead days and the yearly
 * emergency allowance of one outlet at one store. The routes check the store is in the caller's scope; the
 * outlet must order from the store (else 404).
 */

const view = (outletId: number, storeId: number, o: Awaited<ReturnType<typeof repo.findOutletOverride>>): OutletScheduleOverride => ({
  outletId,
  storeId,
  orderDays: o?.order_days ? [...o.order_days].sort((a, b) => a - b) : null,
  cutoffLocalTime: o?.cutoff_local_time ? o.cutoff_local_time.slice(0, 5) : null,
  deliveryLeadDays: o?.delivery_lead_days ?? null,
  emergencyAllowance: o?.emergency_allowance ?? null,
});

/** The outlet id of the path (400 when not an id) when the outlet orders from the store; else 404. */
async function linked(db: Db, outlet: string, storeId: number): Promise<number> {
  const id = intIdSchema.safeParse(outlet);
  if (!id.success) throw new BadRequestError('Invalid outlet id', [{ path: 'outletId', message: 'Use a positive whole number' }]);
  if (!(await repo.isLinked(db, id.data, storeId))) throw new NotFoundError('Outlet not found');
  return id.data;
}

/** GET /admin/stores/{storeId}/outlets/{outletId}/schedule: the outlet's overrides (nulls: the store's values). */
export async function getOverride(db: Db, storeId: number, outlet: string): Promise<OutletScheduleOverride> {
  const outletId = await linked(db, outlet, storeId);
  return view(outletId, storeId, await repo.findOutletOverride(db, outletId, storeId));
}

/** PUT …/schedule: merges the fields sent into the outlet's overrides (null clears one). Audited. */
export async function setOverride(
  db: Db,
  actor: Actor,
  storeId: number,
  outlet: string,
  body: OutletScheduleOverrideBody,
): Promise<OutletScheduleOverride> {
  return db.transaction(async (trx) => {
    const outletId = await linked(trx, outlet, storeId);
    const cur = await repo.findOutletOverride(trx, outletId, storeId);
    const pick = <T>(sent: T | null | undefined, old: T | null | undefined): T | null => (sent === undefined ? (old ?? null) : sent);
    await repo.saveOutletOverride(trx, {
      outlet_id: outletId,
      store_id: storeId,
      order_days: pick(body.orderDays ? [...body.orderDays].sort((a, b) => a - b) : body.orderDays, cur?.order_days),
      cutoff_local_time: pick(body.cutoffLocalTime, cur?.cutoff_local_time),
      delivery_lead_days: pick(body.deliveryLeadDays, cur?.delivery_lead_days),
      emergency_allowance: pick(body.emergencyAllowance, cur?.emergency_allowance),
    });
    await recordAudit(trx, auditActor(actor), {
      action: 'store.outlet_schedule.updated',
      entityType: 'store',
      entityId: storeId,
      ip: actor.ip,
      details: { outletId, ...body },
    });
    return view(outletId, storeId, await repo.findOutletOverride(trx, outletId, storeId));
  });
}
