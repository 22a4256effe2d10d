import { z } from 'zod';
import {
  adminStoreSchema,
  updateStoreBodySchema,
  DEFAULT_STORE_SCHEDULE,
  SPLIT_CASE_POLICIES,
  type AdminStore,
  type SplitCasePolicy,
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
  splitCasePolicy: SplitCasePolicy;
  splitCaseFee: string;
}

/** The PATCH body of the Settings tab's ordering card: the ordering settings and the split-case policy (issue 27). */
export type OrderingBody = StoreOrderingPatch & { splitCasePolicy?: SplitCasePolicy; splitCaseFee?: string };

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
 * The Settings tab's ordering form (issue 28 §5, issue 27's split cases): text inputs → the PATCH /admin/stores/{id}
 * body, then checked by the contracts' updateStoreBodySchema (the API's own rules). Litres become millilitres; empty
 * minimums are none.
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
    splitCasePolicy: z.enum(SPLIT_CASE_POLICIES),
    splitCaseFee: z.string(),
  })
  .transform((v, ctx): OrderingBody => {
    const checked = updateStoreBodySchema.safeParse(v);
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
    splitCasePolicy: s?.splitCasePolicy ?? 'any',
    splitCaseFee: s?.splitCaseFee ?? '0.00',
  };
}

/** PATCH /admin/stores/{id} with the ordering and split-case settings only; answers the saved store. Throws ApiError. */
export async function saveStoreOrdering(storeId: number, body: OrderingBody): Promise<AdminStore> {
  return adminStoreSchema.parse(await api.patch(`/admin/stores/${storeId}`, { json: body }));
}
