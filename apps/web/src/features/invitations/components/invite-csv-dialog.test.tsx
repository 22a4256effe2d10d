import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { bulkInviteResultSchema, type BulkInviteResult } from '@portal/contracts';
import * as toaster from '@/components/ui/toaster';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { InviteCsvDialog } from './invite-csv-dialog';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
const notify = toaster.notify as jest.Mock;

const CSV = [
  'email,first name,last name,role code,outlet codes',
  'bea@example.com,Bea,Bulk,outlet_buyer,DEMO-DSM-01',
  'not-an-email,Bad,Row,outlet_buyer,DEMO-DSM-01',
  'bo@example.com,Bo,Bulk,no_such_role,DEMO-DSM-01',
  'bev@example.com,Bev,Bulk,outlet_viewer,DEMO-DSM-01',
].join('\n');
const outcome = (dryRun: boolean): BulkInviteResult => ({
  dryRun,
  okCount: 2,
  failedCount: 2,
  results: [
    { row: 2, email: 'bea@example.com', ok: true, ...(dryRun ? {} : { invitationId: 'i1' }) },
    { row: 3, email: 'not-an-email', ok: false, code: 'validation_failed', message: 'Please enter a valid email address' },
    { row: 4, email: 'bo@example.com', ok: false, code: 'validation_failed', message: 'Role code "no_such_role" does not exist.' },
    { row: 5, email: 'bev@example.com', ok: true, ...(dryRun ? {} : { invitationId: 'i2' }) },
  ],
});

function setup() {
  const api = new FakeApi().on('post', '/invitations/bulk', (call) =>
    reply(bulkInviteResultSchema, outcome(call.url.includes('dryRun=true'))),
  );
  const onInvited = jest.fn();
  renderRoute(<InviteCsvDialog open onOpenChange={jest.fn()} onInvited={onInvited} />, { api });
  return { api, onInvited };
}

beforeEach(() => notify.mockReset());

describe('Invite from CSV (issue 26 §3)', () => {
  it('checks the pasted file first (dry run), naming the refused rows by line, then sends the valid ones and toasts', async () => {
    const user = userEvent.setup();
    const { api, onInvited } = setup();
    expect(screen.getByRole('button', { name: 'Check file' })).toBeDisabled();
    await user.click(screen.getByLabelText('Or paste the rows'));
    await user.paste(CSV);
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    const problems = await screen.findByRole('list', { name: 'Rows with problems' });
    expect(
      within(problems)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Line 3 · not-an-emailPlease enter a valid email address',
      'Line 4 · bo@example.comRole code "no_such_role" does not exist.',
    ]);
    expect(screen.getByText('2 rows ready to send, 2 with problems.')).toBeInTheDocument();
    expect(api.calls).toEqual([{ method: 'post', url: '/invitations/bulk?dryRun=true', body: CSV }]);
    expect(onInvited).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Send 2 invitations' }));
    expect(await screen.findByText('2 invitations sent, 2 refused.')).toBeInTheDocument();
    expect(api.calls.at(-1)).toEqual({ method: 'post', url: '/invitations/bulk', body: CSV });
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Invitations sent', description: '2 of 4 invitations sent; 2 refused.' }),
    );
    expect(onInvited).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Done' })).toBeInTheDocument();
  });

  it('reads a chosen file', async () => {
    const user = userEvent.setup();
    const { api } = setup();
    await user.upload(screen.getByLabelText('CSV file'), new File([CSV], 'people.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Read people.csv')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    await screen.findByRole('list', { name: 'Rows with problems' });
    expect(api.calls[0].body).toBe(CSV);
  });

  it('when the file is refused as a whole (its header), then the server says why and nothing moves on', async () => {
    const user = userEvent.setup();
    const api = new FakeApi().on('post', '/invitations/bulk', problem(400, 'csv_header_unknown', 'The CSV header must name the columns…'));
    renderRoute(<InviteCsvDialog open onOpenChange={jest.fn()} />, { api });
    await user.click(screen.getByLabelText('Or paste the rows'));
    await user.paste('name\nx');
    await user.click(screen.getByRole('button', { name: 'Check file' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The CSV header must name the columns…');
    expect(screen.getByRole('button', { name: 'Check file' })).toBeInTheDocument();
    await waitFor(() => expect(api.calls).toHaveLength(1));
  });
});
