import { screen, waitFor, within } from '@testing-library/react';
import { createdWebhookSchema, webhookDeliveryListSchema, webhookListSchema, webhookSchema, type Webhook } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { WebhooksTab } from './webhooks-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

/** Webhooks tab (issue 14 §5): list, switch off, register (secret shown once), the delivery log. */
const HOOK: Webhook = {
  id: 'w1',
  url: 'https://wms.example.com/hook',
  storeId: 2190,
  boardId: null,
  events: ['order.created'],
  active: true,
  createdAt: '2026-11-20T10:00:00Z',
};

beforeEach(() => jest.clearAllMocks());

it('lists endpoints; the switch turns one off with a PATCH; Deliveries shows its log', async () => {
  const api = new FakeApi()
    .on('get', '/admin/webhooks', reply(webhookListSchema, { items: [HOOK] }))
    .on('patch', '/admin/webhooks/{id}', reply(webhookSchema, { ...HOOK, active: false }))
    .on(
      'get',
      '/admin/webhooks/{id}/deliveries',
      reply(webhookDeliveryListSchema, {
        items: [
          {
            id: 'd1',
            seq: 12,
            type: 'order.created',
            status: 'failed',
            attempts: 3,
            lastStatusCode: 500,
            lastDurationMs: 40,
            lastError: 'HTTP 500 Internal Server Error',
            createdAt: '2026-11-21T10:00:00Z',
            deliveredAt: null,
          },
        ],
      }),
    );
  const { user } = renderRoute(<WebhooksTab />, { api });
  const table = await screen.findByRole('table', { name: 'Webhooks' });
  expect(within(table).getByText('Store 2190')).toBeInTheDocument();
  await user.click(within(table).getByRole('switch', { name: `Active: ${HOOK.url}` }));
  await waitFor(() =>
    expect(api.calls.filter((c) => c.method === 'patch')).toEqual([
      { method: 'patch', url: '/admin/webhooks/w1', body: { active: false } },
    ]),
  );
  expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Webhook off' }));
  await user.click(within(table).getByRole('button', { name: 'Deliveries' }));
  const log = await screen.findByRole('table', { name: 'Deliveries' });
  expect(within(log).getByText('order.created #12')).toBeInTheDocument();
  expect(within(log).getByRole('button', { name: 'Redeliver order.created #12' })).toBeInTheDocument();
});

it('registers an endpoint and shows the signing secret once; with none, the empty state shows', async () => {
  const api = new FakeApi()
    .on('get', '/admin/webhooks', reply(webhookListSchema, { items: [] }))
    .on('post', '/admin/webhooks', reply(createdWebhookSchema, { ...HOOK, secret: 'whsec_once' }, 201));
  const { user } = renderRoute(<WebhooksTab />, { api });
  expect(await screen.findByText('No webhooks yet')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Add webhook' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add webhook' });
  await user.type(within(dialog).getByLabelText('URL *'), HOOK.url);
  await user.type(within(dialog).getByLabelText('Store number *'), '2190');
  await user.click(within(dialog).getByRole('button', { name: 'Add' }));
  expect(await screen.findByDisplayValue('whsec_once')).toBeInTheDocument();
  const body = api.calls.find((c) => c.method === 'post')?.body as { url: string; storeId: number };
  expect(body).toMatchObject({ url: HOOK.url, storeId: 2190 });
});
