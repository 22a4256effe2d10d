import { z } from 'zod';
import { outletScheduleOverrideSchema, type OutletScheduleOverride } from '@portal/contracts';
import { api, useApi } from '@/lib/api';

/**
 * An outlet's overrides of its store's order schedule (issue 28 §1; GET|PUT
 * /admin/stores/{storeId}/outlets/{outletId}/schedule): order days, cut-off, lead days and the yearly emergency
 * allowance; null = the store's own value.
 */
export const useOutletSchedule = (storeId: number, outletId: number | null) =>
  useApi(outletId ? `/admin/stores/${storeId}/outlets/${outletId}/schedule` : null, outletScheduleOverrideSchema, {
    revalidateOnFocus: false,
  });

/** The override form's text values (empty = the store's value). */
export interface OutletScheduleForm {
  orderDays: string[];
  cutoffLocalTime: string;
  deliveryLeadDays: string;
  emergencyAllowance: string;
}

const wholeOrNull = (min: number, max: number) =>
  z
    .string()
    .trim()
    .refine(
      (v) => v === '' || (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max),
      `Enter a whole number from ${min} to ${max}, or leave empty`,
    )
    .transform((v) => (v === '' ? null : Number(v)));

/** The form → PUT body (the ranges of the contract's outletScheduleOverrideBodySchema, which the server applies again). */
export const outletScheduleFormSchema = z.object({
  orderDays: z.array(z.string()).transform((d) => (d.length ? d.map(Number).sort((a, b) => a - b) : null)),
  cutoffLocalTime: z
    .string()
    .trim()
    .refine((v) => v === '' || /^([01]\d|2[0-3]):[0-5]\d$/.test(v), 'Use the time format HH:MM (24 hours), or leave empty')
    .transform((v) => (v === '' ? null : v)),
  deliveryLeadDays: wholeOrNull(0, 14),
  emergencyAllowance: wholeOrNull(0, 365),
});
export type OutletScheduleBody = z.output<typeof outletScheduleFormSchema>;

/** The saved overrides as form values. */
export const outletScheduleFormValues = (o: OutletScheduleOverride | undefined): OutletScheduleForm => ({
  orderDays: (o?.orderDays ?? []).map(String),
  cutoffLocalTime: o?.cutoffLocalTime ?? '',
  deliveryLeadDays: o?.deliveryLeadDays?.toString() ?? '',
  emergencyAllowance: o?.emergencyAllowance?.toString() ?? '',
});

/** PUT the overrides (audited on the server). */
export async function saveOutletSchedule(storeId: number, outletId: number, body: OutletScheduleBody): Promise<void> {
  await api.put(`/admin/stores/${storeId}/outlets/${outletId}/schedule`, { json: body });
}
