import { configure, screen, waitFor, within } from '@testing-library/react';
import {
  dataSummarySchema,
  importAcceptedSchema,
  importRunListSchema,
  importRunSchema,
  type DataSummary,
  type ImportRun,
} from '@portal/contracts';
import { notify } from '@/components/ui/toaster';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { DataSyncTab, parseRowError } from './data-sync-tab';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

/** Data Synch tab (spec 002 §2, issue 13 §6): what the portal holds, recent runs, an upload refused with its row errors. */
const SUMMARY: DataSummary = {
  items: 1200,
  activeItems: 900,
  stores: 12,
  inventoryRows: 5000,
  categories: 40,
  boards: 1,
  lastImports: [{ kind: 'stores', file: 'stores.csv', finishedAt: '2026-11-20T10:00:00Z', status: 'succeeded', source: 'cli' }],
};
const run = (status: ImportRun['status'], errors: string[] = []): ImportRun => ({
  id: 'r1',
  status,
  source: 'upload',
  createdBy: 'admin@example.com',
  createdAt: '2026-11-21T10:00:00Z',
  startedAt: '2026-11-21T10:00:00Z',
  finishedAt: status === 'running' ? null : '2026-11-21T10:00:01Z',
  progress: { rowsRead: 2, rowsTotal: 2, percent: 100 },
  files: [{ name: 'products.csv', kind: 'products', rows: 2, created: 0, updated: 0, unchanged: 0, errors }],
  error: null,
});

beforeEach(() => jest.clearAllMocks());

it('on an /admin page load, takes the summary and the runs the boot script asked for and asks neither again (issue 26)', async () => {
  window.__portalBoot = {
    data: {
      '/admin/imports/summary': Promise.resolve(JSON.parse(JSON.stringify(SUMMARY))),
      '/admin/imports': Promise.resolve({ items: [JSON.parse(JSON.stringify(run('succeeded')))] }),
    },
  };
  const api = new FakeApi();
  renderRoute(<DataSyncTab />, { api });
  expect(await screen.findByText('1,200')).toBeInTheDocument();
  expect(await screen.findByText('products.csv')).toBeInTheDocument();
  expect(api.calls).toEqual([]);
  expect(window.__portalBoot).toEqual({ data: {} });
  delete window.__portalBoot;
});

it('shows what the portal holds and the recent runs, or "No imports yet"', async () => {
  renderRoute(<DataSyncTab />, {
    api: new FakeApi()
      .on('get', '/admin/imports/summary', reply(dataSummarySchema, SUMMARY))
      .on('get', '/admin/imports', reply(importRunListSchema, { items: [] })),
  });
  expect(await screen.findByText('1,200')).toBeInTheDocument();
  expect(screen.getByRole('list', { name: 'Last import per kind' })).toHaveTextContent('stores.csv');
  expect(await screen.findByText('No imports yet')).toBeInTheDocument();
});

it('when an uploaded file is refused, then the run shows as refused with its row errors', async () => {
  const api = new FakeApi()
    .on('get', '/admin/imports/summary', reply(dataSummarySchema, SUMMARY))
    .on('get', /^\/admin\/imports$/, reply(importRunListSchema, { items: [run('succeeded')] }))
    .on('post', '/admin/imports', reply(importAcceptedSchema, { id: 'r1', status: 'queued' }, 202))
    .on('get', '/admin/imports/r1', reply(importRunSchema, run('failed', ['products.csv:2: retail: Enter a price'])));
  const { user } = renderRoute(<DataSyncTab />, { api });
  expect(await screen.findByRole('table', { name: 'Recent imports' })).toBeInTheDocument();
  const file = new File(['code,name\n1,x\n'], 'products.csv', { type: 'text/csv' });
  await user.upload(screen.getByLabelText('CSV files to import'), file);
  await user.click(screen.getByRole('button', { name: 'Upload and import' }));
  expect(await screen.findByText('Import refused: the files with errors wrote nothing.')).toBeInTheDocument();
  const errors = screen.getByRole('table', { name: 'Row errors' });
  expect(within(errors).getByText('Enter a price')).toBeInTheDocument();
  expect(within(errors).getByText('retail')).toBeInTheDocument();
  await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Sync Failed', variant: 'destructive' })));
});

it('under StrictMode (mounted twice, as in a development build and the journeys’ build), a queued run is still followed until it finishes', async () => {
  let polls = 0;
  const api = new FakeApi()
    .on('get', '/admin/imports/summary', reply(dataSummarySchema, SUMMARY))
    .on('get', /^\/admin\/imports$/, reply(importRunListSchema, { items: [] }))
    .on('post', '/admin/imports', reply(importAcceptedSchema, { id: 'r1', status: 'queued' }, 202))
    .on('get', '/admin/imports/r1', () =>
      polls++ === 0
        ? reply(importRunSchema, { ...run('queued'), startedAt: null, finishedAt: null })
        : reply(importRunSchema, run('failed', ['products.csv:2: retail: Enter a price'])),
    );
  // Strict effects apply only to a StrictMode at the root: Testing Library's option puts it there.
  configure({ reactStrictMode: true });
  const { user } = renderRoute(<DataSyncTab />, { api });
  configure({ reactStrictMode: false });
  await user.upload(
    await screen.findByLabelText('CSV files to import'),
    new File(['code,name\n1,x\n'], 'products.csv', { type: 'text/csv' }),
  );
  await user.click(screen.getByRole('button', { name: 'Upload and import' }));
  expect(await screen.findByText('Import refused: the files with errors wrote nothing.', {}, { timeout: 5000 })).toBeInTheDocument();
  expect(api.urls('get').filter((u) => u === '/admin/imports/r1')).toHaveLength(2);
});

it('parses a row error into file, line, field and reason', () => {
  expect(parseRowError('products.csv:2: retail: Enter a price')).toEqual({
    file: 'products.csv',
    line: '2',
    field: 'retail',
    reason: 'Enter a price',
  });
  expect(parseRowError('products.csv: header: unknown')).toEqual({ file: 'products.csv', line: '', field: 'header', reason: 'unknown' });
});
