import type { z } from 'zod';
import {
  adminStorePageSchema,
  createCredentialBodySchema,
  credentialTestResultSchema,
  paymentCredentialListSchema,
  revealedCredentialSchema,
} from '@portal/contracts';
import { api, useApi } from '@/lib/api';

/**
 * Payment credentials API (spec 002 §2, §5, §8): the list (never the secret), the store choices of the
 * form, create/update (encrypted on the server), the audited decrypt and the Monetra test.
 */

/** GET /admin/payment-credentials, newest first. */
export const usePaymentCredentials = () => useApi('/admin/payment-credentials', paymentCredentialListSchema);

/** GET /admin/stores?pageSize=20&search=: the store choices of the credential form. */
export const useCredentialStoreOptions = (search: string) =>
  useApi(`/admin/stores?pageSize=20${search ? `&search=${encodeURIComponent(search)}` : ''}`, adminStorePageSchema, {
    keepPreviousData: true,
  });

/** The credential body as the contracts parse it (on edit, every field optional). */
export type CredentialBody = z.output<typeof createCredentialBodySchema>;

/** POST /admin/payment-credentials (no `credentialId`) or PATCH /admin/payment-credentials/{id}. Throws ApiError. */
export async function saveCredential(credentialId: number | null, body: Partial<CredentialBody>): Promise<void> {
  if (credentialId) await api.patch(`/admin/payment-credentials/${credentialId}`, { json: body });
  else await api.post('/admin/payment-credentials', { json: body });
}

/** POST /admin/payment-credentials/{id}/reveal { currentPassword }: the decrypted payload (audited). Throws ApiError. */
export async function revealCredential(credentialId: number, currentPassword: string) {
  return revealedCredentialSchema.parse(await api.post(`/admin/payment-credentials/${credentialId}/reveal`, { json: { currentPassword } }));
}

/** POST /admin/payment-credentials/{id}/test (Monetra): `{ success, message }`. Throws ApiError. */
export async function testCredential(credentialId: number) {
  return credentialTestResultSchema.parse(await api.post(`/admin/payment-credentials/${credentialId}/test`));
}
