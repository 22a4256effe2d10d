import { z } from 'zod';
import { bottleSizeSchema } from '@portal/contracts';
import { preloadApi, useApi } from '@/lib/api';

const bottleSizesSchema = z.object({ items: z.array(bottleSizeSchema) });

/** GET /stores/{storeId}/bottle-sizes: the sizes the store carries (for the size filter). */
export function useBottleSizes(storeId: number | null) {
  return useApi(storeId ? `/stores/${storeId}/bottle-sizes` : null, bottleSizesSchema, { revalidateIfStale: false });
}

/** Starts GET /stores/{storeId}/bottle-sizes now; useBottleSizes takes the answer (SWR preload). */
export function preloadBottleSizes(storeId: number): void {
  preloadApi(`/stores/${storeId}/bottle-sizes`, bottleSizesSchema);
}
