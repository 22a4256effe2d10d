import { z } from 'zod';
import {
  adminStoreSchema,
  storeOrderingPatchSchema,
  DEFAULT_STORE_SCHEDULE,
  type AdminStore,
  type StoreOrderingPatch,
} from '@portal/contracts';
import { api } from '@/lib/api';

/** Messages of the ordering settings form. */
export const ORDERING_MESSAGES = {
  wholeNumber: (min: number, max: number) => `Enter a whole number from ${min} to ${max}`,
  litres: 'Enter litres (0 or more, up to 3 decimals), or leave empty for no minimum',
} as const;

/** The form's text values (inputs hold strings; the minimum volume is typed in litres). */
export interface OrderingFormValues {
  orderDays: string[];
  cutoffLocalTime: string;
  timeZone: string;
  deliveryLeadDays: string;
  deliveryMinimumMl: string;
  deliveryMinimumAmount: string;
  emergencyAllowance: string;
  emergencyFee: string;
}

const wholeNumber = (min: number, max: number) =>
  z.string().transform((s, ctx) => {
    const t = s.trim();
    if (!/^\d+$/.test(t) || Number(t) < min || Number(t) > max) {
      ctx.addIssue({ code: 'custom', message: ORDERING_MESSAGES.wholeNumber(min, max) });
      return z.NEVER;
    }
    return Number(t);
  });

/**
 * The Settings tab's ordering form (issue 28 §5): text inputs → the PATCH /admin/stores/{id} body, then checked by
 * the contracts' storeOrderingPatchSchema (the API's own rules). Litres become millilitres; empty minimums are none.
 */
export const orderingFormSchema = z
  .object({
    orderDays: z.array(z.string()).transform((d) => d.map(Number).sort((a, b) => a - b)),
    cutoffLocalTime: z.string(),
    timeZone: z.string(),
    deliveryLeadDays: wholeNumber(0, 14),
    deliveryMinimumMl: z.string().transform((s, ctx) => {
      const t = s.trim();
      if (!t) return null;
      if (!/^\d+(\.\d{1,3})?$/.test(t)) {
        ctx.addIssue({ code: 'custom', message: ORDERING_MESSAGES.litres });
        return z.NEVER;
      }
      return Math.round(Number(t) * 1000);
    }),
    deliveryMinimumAmount: z.string(),
    emergencyAllowance: wholeNumber(0, 365),
    emergencyFee: z.string().transform((s) => s.trim() || '0'),
  })
  .transform((v, ctx): StoreOrderingPatch => {
    const checked = storeOrderingPatchSchema.safeParse(v);
    if (checked.success) return checked.data;
    for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: issue.path.slice(0, 1), message: issue.message });
    return z.NEVER;
  });

/** A store's ordering settings as form values (the contracts' defaults where the store has none). */
export function orderingFormValues(s?: AdminStore): OrderingFormValues {
  const d = DEFAULT_STORE_SCHEDULE;
  return {
    orderDays: (s?.orderDays ?? d.orderDays).map(String),
    cutoffLocalTime: s?.cutoffLocalTime ?? d.cutoffLocalTime,
    timeZone: s?.timeZone ?? d.timeZone,
    deliveryLeadDays: String(s?.deliveryLeadDays ?? d.deliveryLeadDays),
    deliveryMinimumMl: s?.deliveryMinimumMl != null ? String(s.deliveryMinimumMl / 1000) : '',
    deliveryMinimumAmount: s?.deliveryMinimumAmount ?? '',
    emergencyAllowance: String(s?.emergencyAllowance ?? d.emergencyAllowance),
    emergencyFee: s?.emergencyFee ?? d.emergencyFee,
  };
}

/** PATCH /admin/stores/{id} with the ordering settings only; answers the saved store. Throws ApiError. */
export async function saveStoreOrdering(storeId: number, body: StoreOrderingPatch): Promise<AdminStore> {
  return adminStoreSchema.parse((await api.patch(`/admin/stores/${storeId}`, body)).data);
}
