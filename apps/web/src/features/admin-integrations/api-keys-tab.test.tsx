import { screen, waitFor, within } from '@testing-library/react';
import { apiKeyListSchema, createdApiKeySchema } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { ApiKeysTab } from './api-keys-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

/** API Keys tab (issue 14 §2): list with prefix and last use, create shows the key once, validation. */
const KEY = {
  id: 'k1',
  name: 'WMS',
  prefix: 'abcd1234',
  storeId: 2190,
  boardId: null,
  scopes: ['orders:read'],
  sandbox: false,
  createdAt: '2026-11-20T10:00:00Z',
  lastUsedAt: null,
  revokedAt: null,
};

it('lists keys by prefix (never the key) and shows a new key once after creating it', async () => {
  const api = new FakeApi()
    .on('get', '/admin/api-keys', reply(apiKeyListSchema, { items: [KEY] }))
    .on('post', '/admin/api-keys', reply(createdApiKeySchema, { ...KEY, id: 'k2', name: 'New', key: 'bcc_zzzz9999_secretpart' }));
  const posts = () => api.calls.filter((c) => c.method === 'post');
  const { user } = renderRoute(<ApiKeysTab />, { api });
  const table = await screen.findByRole('table', { name: 'API keys' });
  expect(within(table).getByText('bcc_abcd1234_…')).toBeInTheDocument();
  expect(within(table).getByText('Never')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Create API key' }));
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: 'Create' }));
  expect(await within(dialog).findByText('Enter a name')).toBeInTheDocument();
  expect(posts()).toEqual([]);
  await user.type(within(dialog).getByLabelText('Name *'), 'New');
  await user.type(within(dialog).getByLabelText('Store number *'), '2190');
  await user.click(within(dialog).getByRole('button', { name: 'Create' }));
  await waitFor(() =>
    expect(posts()).toEqual([
      { method: 'post', url: '/admin/api-keys', body: { name: 'New', storeId: 2190, scopes: ['inventory:write', 'orders:read'] } },
    ]),
  );
  expect(await screen.findByDisplayValue('bcc_zzzz9999_secretpart')).toBeInTheDocument();
  expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'API key created' }));
});
