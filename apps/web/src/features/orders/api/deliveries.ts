import { z } from 'zod';
import { useApi } from '@/lib/api';

const deliverySchema = z.object({
  id: z.number().int(),
  orderNumber: z.string(),
  status: z.string().optional(),
  outletName: z.string().nullable().optional(),
  customerName: z.string().nullable().optional(),
  total: z.string().nullable().optional(),
  itemCount: z.number().int().nullable().optional(),
  unitCount: z.number().int().nullable().optional(),
  emergency: z.boolean().nullable().optional(),
  fulfillmentDate: z.string().nullable().optional(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/**
 * GET /stores/{storeId}/deliveries?date= (issue 28 §1): the orders to deliver on a day (default tomorrow in the
 * store's time zone). Read as { date?, items | orders } or a bare array.
 */
export const deliveriesSchema = z.union([
  z.array(deliverySchema).transform((items) => ({ date: null as string | null, items })),
  z
    .object({
      date: z.string().nullable().optional(),
      items: z.array(deliverySchema).optional(),
      orders: z.array(deliverySchema).optional(),
    })
    .transform((d) => ({ date: d.date ?? null, items: d.items ?? d.orders ?? [] })),
]);

/** The store's deliveries on `date` (null: tomorrow, the server's default); null storeId skips. */
export function useStoreDeliveries(storeId: number | null | undefined, date: string | null = null) {
  return useApi(storeId ? `/stores/${storeId}/deliveries${date ? `?date=${date}` : ''}` : null, deliveriesSchema, {
    refreshInterval: 60_000,
  });
}
