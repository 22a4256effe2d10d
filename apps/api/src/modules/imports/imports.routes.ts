import { z } from 'zod';
import {
  PERMISSIONS,
  PROBLEM_CODES,
  dataSummarySchema,
  importAcceptedSchema,
  importRunListSchema,
  importRunSchema,
} from '@portal/contracts';
import { ServiceUnavailableError } from '../../http/errors';
import { route } from '../../http/route';
import { adminActor } from '../access/access.service';
import * as imports from './imports.service';

const tags = ['admin: data sync'];
const permissions = [PERMISSIONS.adminAllowDataSync];

/**
 * /api/v1/admin/imports (spec 002 §2 Data Synch, ARCHITECTURE §5): upload CSV files of the
 * shapes `db:import` knows; the import runs as a pg-boss job; poll the run for progress and row errors.
 */
export const importsRoutes = [
  route({
    method: 'get',
    path: '/admin/imports',
    scope: 'global',
    tags,
    permissions,
    summary: 'The newest 50 import runs (uploads and CLI imports)',
    response: { description: 'Runs, newest first', schema: importRunListSchema },
    handler: (_actor, _i, { ctx }) => imports.listImports(ctx.db),
  }),
  route({
    method: 'get',
    path: '/admin/imports/summary',
    scope: 'global',
    tags,
    permissions,
    summary: 'What the portal holds: items, stores, inventory rows, categories, boards, the last import of each kind',
    response: { description: 'Counts and last imports', schema: dataSummarySchema },
    handler: (_actor, _i, { ctx }) => imports.dataSummary(ctx.db),
  }),
  route({
    method: 'post',
    path: '/admin/imports',
    scope: 'global',
    tags,
    permissions,
    summary: 'Upload one or more CSV files (multipart/form-data, field "files"): stores.csv, products.csv or store items shapes',
    description: `At most ${imports.MAX_FILES} files of ${imports.MAX_FILE_BYTES / 1024 / 1024} MB each. The files are streamed to disk, never held in memory; the import runs as a job: poll GET /admin/imports/{id}.`,
    response: { status: 202, description: 'Queued', schema: importAcceptedSchema },
    errors: {
      400: 'Not multipart or no file',
      413: 'Too many or too large files (payload_too_large)',
      503: 'The import queue is not running (imports_unavailable)',
    },
    handler: (actor, _i, { ctx, req }) => {
      if (!ctx.imports) throw new ServiceUnavailableError('Imports are not available on this server', PROBLEM_CODES.importsUnavailable);
      return imports.acceptUpload(ctx.db, ctx.imports, ctx.config.dataDir, adminActor(actor, req), req);
    },
  }),
  route({
    method: 'get',
    path: '/admin/imports/{id}',
    scope: 'global',
    tags,
    permissions,
    params: z.object({ id: z.uuid() }),
    summary: 'One import run: status, progress (rows read of total), per-file created / updated / unchanged counts and row errors',
    response: { description: 'The run', schema: importRunSchema.meta({ id: 'ImportRun' }) },
    errors: { 404: 'No such import' },
    handler: (_actor, { params }, { ctx }) => imports.getImport(ctx.db, params.id),
  }),
];
