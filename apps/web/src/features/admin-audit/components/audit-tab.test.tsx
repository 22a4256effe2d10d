import { screen, waitFor, within } from '@testing-library/react';
import { auditLogSchema } from '@portal/contracts';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { AuditTab } from './audit-tab';

/** Audit tab (issue 12 §9): entries newest first with actor, action and entity; the filter goes to the query. */
const ENTRY = {
  id: 9,
  occurredAt: '2026-11-21T10:00:00Z',
  actorUserId: 'u1',
  actorEmail: 'admin@example.com',
  action: 'user.role_added',
  entityType: 'user',
  entityId: 'u2',
  ip: '10.0.0.1',
  details: { email: 'clerk@example.com' },
};

it('shows the entries and sends the filter; nothing found shows the empty state', async () => {
  const api = new FakeApi().on('get', '/admin/audit-log', ({ url }) =>
    reply(auditLogSchema, url.includes('action=') ? { items: [], nextCursor: null } : { items: [ENTRY], nextCursor: null }),
  );
  const { user } = renderRoute(<AuditTab />, { api });
  const list = await screen.findByRole('list', { name: 'Audit entries' });
  expect(within(list).getByText('admin@example.com')).toBeInTheDocument();
  expect(within(list).getByText('user.role_added')).toBeInTheDocument();
  expect(list).toHaveTextContent('from 10.0.0.1');
  await user.type(screen.getByLabelText('Action'), 'order.');
  await user.click(screen.getByRole('button', { name: 'Filter' }));
  expect(await screen.findByText('No audit entries')).toBeInTheDocument();
  await waitFor(() => expect(api.urls('get')).toContain('/admin/audit-log?limit=50&action=order.'));
});
