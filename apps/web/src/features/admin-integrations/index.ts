/** Admin API Keys and Webhooks tabs (issue 14 §§2, 5). */
export { ApiKeysTab } from './api-keys-tab';
export { WebhooksTab } from './webhooks-tab';
