import { z } from 'zod';
import { bottleSizeSchema } from '@portal/contracts';
import { preload } from 'swr';
import { getJson, useApi } from '@/lib/api';

const bottleSizesSchema = z.object({ items: z.array(bottleSizeSchema) });

/** GET /stores/{storeId}/bottle-sizes: the sizes the store carries (for the size filter). */
export function useBottleSizes(storeId: number | null) {
  return useApi(storeId ? `/stores/${storeId}/bottle-sizes` : null, bottleSizesSchema, { revalidateIfStale: false });
}

/** Starts GET /stores/{storeId}/bottle-sizes now; useBottleSizes takes the answer (SWR preload). */
export function preloadBottleSizes(storeId: number): void {
  void preload(`/stores/${storeId}/bottle-sizes`, (p: string) => getJson(p, bottleSizesSchema)).catch(() => undefined);
}
