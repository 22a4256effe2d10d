import type { z } from 'zod';
import { apiKeyListSchema, createApiKeyBodySchema, createdApiKeySchema } from '@portal/contracts';
import { api, useApi } from '@/lib/api';

/** API keys API (issue 14 §2): keys of the caller's stores and boards, create (the whole key once), revoke. */

/** GET /admin/api-keys. */
export const useApiKeys = () => useApi('/admin/api-keys', apiKeyListSchema);

/** The key form's body, as parsed by createApiKeyBodySchema. */
export type ApiKeyFormBody = z.output<typeof createApiKeyBodySchema>;

/** POST /admin/api-keys: answers the whole key (shown once). Throws ApiError. */
export async function createApiKey(body: ApiKeyFormBody): Promise<string> {
  return createdApiKeySchema.parse(await api.post('/admin/api-keys', { json: body })).key;
}
/** DELETE /admin/api-keys/{id}: revoked at once. */
export async function revokeApiKey(keyId: string): Promise<void> {
  await api.delete(`/admin/api-keys/${keyId}`);
}
