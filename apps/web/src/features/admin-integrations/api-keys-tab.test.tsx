import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SWRConfig } from 'swr';
import { api } from '@/lib/api';
import { notify } from '@/components/ui/toaster';
import { ApiKeysTab } from './api-keys-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

/** API Keys tab (issue 14 §2): list with prefix and last use, create shows the key once, validation. */
const KEY = { id: 'k1', name: 'WMS', prefix: 'abcd1234', storeId: 2190, boardId: null, scopes: ['orders:read'], createdAt: '2026-11-20T10:00:00Z', lastUsedAt: null, revokedAt: null };
afterEach(() => jest.restoreAllMocks());
const renderTab = () => render(<SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}><ApiKeysTab /></SWRConfig>);

it('lists keys by prefix (never the key) and shows a new key once after creating it', async () => {
  jest.spyOn(api, 'get').mockResolvedValue({ data: { items: [KEY] } });
  const post = jest.spyOn(api, 'post').mockResolvedValue({ data: { ...KEY, id: 'k2', name: 'New', key: 'bcc_zzzz9999_secretpart' } });
  renderTab();
  const table = await screen.findByRole('table', { name: 'API keys' });
  expect(within(table).getByText('bcc_abcd1234_…')).toBeInTheDocument();
  expect(within(table).getByText('Never')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
  const dialog = await screen.findByRole('dialog');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
  expect(await within(dialog).findByText('Enter a name')).toBeInTheDocument();
  expect(post).not.toHaveBeenCalled();
  await userEvent.type(within(dialog).getByLabelText('Name *'), 'New');
  await userEvent.type(within(dialog).getByLabelText('Store number *'), '2190');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
  await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/api-keys', { name: 'New', storeId: 2190, scopes: ['inventory:write', 'orders:read'] }));
  expect(await screen.findByDisplayValue('bcc_zzzz9999_secretpart')).toBeInTheDocument();
  expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'API key created' }));
});
