import type { z } from 'zod';
import { createWebhookBodySchema, createdWebhookSchema, webhookDeliveryListSchema, webhookListSchema } from '@portal/contracts';
import { api, useApi } from '@/lib/api';

/** Webhooks API (issue 14 §5): endpoints, register (the secret once), on/off, remove, deliveries and redeliver. */

/** GET /admin/webhooks. */
export const useWebhooks = () => useApi('/admin/webhooks', webhookListSchema);
/** GET /admin/webhooks/{id}/deliveries. */
export const useWebhookDeliveries = (webhookId: string) => useApi(`/admin/webhooks/${webhookId}/deliveries`, webhookDeliveryListSchema);

/** The webhook form's body, as parsed by createWebhookBodySchema. */
export type WebhookFormBody = z.output<typeof createWebhookBodySchema>;

/** POST /admin/webhooks: answers the signing secret (shown once). Throws ApiError. */
export async function createWebhook(body: WebhookFormBody): Promise<string> {
  return createdWebhookSchema.parse(await api.post('/admin/webhooks', { json: body })).secret;
}
/** PATCH /admin/webhooks/{id} { active }. */
export async function setWebhookActive(webhookId: string, active: boolean): Promise<void> {
  await api.patch(`/admin/webhooks/${webhookId}`, { json: { active } });
}
/** DELETE /admin/webhooks/{id}. */
export async function deleteWebhook(webhookId: string): Promise<void> {
  await api.delete(`/admin/webhooks/${webhookId}`);
}
/** POST /admin/webhooks/{id}/deliveries/{deliveryId}/redeliver. */
export async function redeliver(webhookId: string, deliveryId: string): Promise<void> {
  await api.post(`/admin/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`);
}
