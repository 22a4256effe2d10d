import { screen, waitFor, within } from '@testing-library/react';
import { adminStorePageSchema, paymentCredentialListSchema, revealedCredentialSchema } from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { adminStore } from '@/test/admin-fixtures';
import { renderRoute } from '@/test/render-route';
import { CredentialsTab } from './credentials-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

/** Credentials tab (spec 002 §2, §5, §8): the list without secrets, the add dialog's rules, the decrypt view. */
const CRED = {
  id: 7,
  storeId: 2190,
  storeName: 'Downtown Wines',
  appCode: 'BCC',
  environment: 'prod',
  credentialType: 'Monetra',
  dekSecretName: 'portal-payment-credentials-v1',
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-21T10:00:00Z',
  createdBy: 'admin@example.com',
  updatedBy: null,
} as const;
const STORE = adminStore();
const withCredentials = (items: (typeof CRED)[] = [CRED]) =>
  new FakeApi()
    .on('get', '/admin/payment-credentials', reply(paymentCredentialListSchema, { items }))
    .on('get', '/admin/stores', reply(adminStorePageSchema, { items: [STORE], page: 1, pageSize: 20, total: 1 }));

beforeEach(() => jest.clearAllMocks());

it('when there are no credentials, then the empty state shows', async () => {
  renderRoute(<CredentialsTab />, { api: withCredentials([]) });
  expect(await screen.findByText('No payment credentials')).toBeInTheDocument();
});

it('lists credentials (never the secret) and the add dialog refuses half a Monetra login, then posts the body', async () => {
  const api = withCredentials().on('post', '/admin/payment-credentials', { status: 201, body: CRED });
  const posts = () => api.calls.filter((c) => c.method === 'post');
  const { user } = renderRoute(<CredentialsTab />, { api });
  const table = await screen.findByRole('table', { name: 'Payment credentials' });
  expect(within(table).getByText('portal-payment-credentials-v1')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Add Credentials' }));
  const dialog = await screen.findByRole('dialog');
  await within(dialog).findByRole('option', { name: 'Downtown Wines (#2190)' });
  await user.selectOptions(within(dialog).getByLabelText('Store *'), '2190');
  await user.type(within(dialog).getByLabelText('Secret name *'), 'portal-payment-credentials-v1');
  await user.type(within(dialog).getByLabelText('Merchant username *'), 'merchant');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all required fields');
  expect(posts()).toEqual([]);
  await user.type(within(dialog).getByLabelText('Merchant password *'), 'secret');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  await waitFor(() =>
    expect(posts()).toEqual([
      {
        method: 'post',
        url: '/admin/payment-credentials',
        body: {
          storeId: 2190,
          appCode: 'BCC',
          environment: 'test',
          credentialType: 'Monetra',
          dekSecretName: 'portal-payment-credentials-v1',
          payload: { username: 'merchant', password: 'secret' },
        },
      },
    ]),
  );
  expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Credentials added', variant: 'success' }));
});

it('when the gateway fields are not JSON, then the dialog says so and posts nothing', async () => {
  const api = withCredentials();
  const { user } = renderRoute(<CredentialsTab />, { api });
  await user.click(await screen.findByRole('button', { name: 'Add Credentials' }));
  const dialog = await screen.findByRole('dialog');
  await user.selectOptions(within(dialog).getByLabelText('Type *'), 'Stripe');
  await user.type(within(dialog).getByLabelText('Gateway fields (JSON) *'), 'not json');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent('The payload must be a JSON object');
  expect(api.calls.filter((c) => c.method === 'post')).toEqual([]);
});

it('decrypt asks for the current password: a wrong one is refused, the right one shows the payload', async () => {
  let attempt = 0;
  const api = withCredentials().on('post', '/admin/payment-credentials/{id}/reveal', () =>
    ++attempt === 1 ? problem(403, 'forbidden', 'Forbidden') : reply(revealedCredentialSchema, { payload: { username: 'merchant' } }),
  );
  const { user } = renderRoute(<CredentialsTab />, { api });
  await user.click(await screen.findByRole('button', { name: 'Decrypt credentials of Downtown Wines' }));
  const dialog = await screen.findByRole('dialog');
  const password = within(dialog).getByLabelText('Your current password');
  await user.type(password, 'wrong');
  await user.click(within(dialog).getByRole('button', { name: 'Decrypt' }));
  expect(await within(dialog).findByText('The current password is not correct.')).toBeInTheDocument();
  expect(password).toHaveValue('');
  await user.type(password, 'right');
  await user.click(within(dialog).getByRole('button', { name: 'Decrypt' }));
  expect(await within(dialog).findByLabelText('Decrypted payload')).toHaveTextContent('"username": "merchant"');
  expect(api.calls.filter((c) => c.method === 'post').map((c) => c.body)).toEqual([
    { currentPassword: 'wrong' },
    { currentPassword: 'right' },
  ]);
});

it('edit keeps the store chosen and, with the secret fields empty, patches without a payload', async () => {
  const api = withCredentials().on('patch', '/admin/payment-credentials/{id}', { status: 200, body: CRED });
  const { user } = renderRoute(<CredentialsTab />, { api });
  await user.click(await screen.findByRole('button', { name: 'Edit credentials of Downtown Wines' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit Credentials' });
  await within(dialog).findByRole('option', { name: 'Downtown Wines (#2190)' });
  expect(within(dialog).getByLabelText('Store *')).toHaveValue('2190');
  await user.selectOptions(within(dialog).getByLabelText('Environment *'), 'test');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  await waitFor(() =>
    expect(api.calls.filter((c) => c.method === 'patch')).toEqual([
      {
        method: 'patch',
        url: '/admin/payment-credentials/7',
        body: {
          storeId: 2190,
          appCode: 'BCC',
          environment: 'test',
          credentialType: 'Monetra',
          dekSecretName: 'portal-payment-credentials-v1',
        },
      },
    ]),
  );
  expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Credentials updated', variant: 'success' }));
});
