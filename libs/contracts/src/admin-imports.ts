import { z } from 'zod';

/**
 * Data Synch (spec 002 §2, ARCHITECTURE §5 "Administration"): import runs and the data summary the admin dashboard
 * shows first. A module of its own, apart from admin-org.ts's items, outlets, stores, boards and credentials: the web
 * bundle builds every schema of a module it loads, and the dashboard's first tab needs only these (issue 26).
 */
export const IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const importFileResultSchema = z.object({
  name: z.string(),
  kind: z.string().nullable(),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** "file:line: field: reason", at most 100 per file. */
  errors: z.array(z.string()),
});
export const importRunSchema = z.object({
  id: z.string(),
  status: z.enum(IMPORT_STATUSES),
  source: z.enum(['upload', 'cli']),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  progress: z.object({ rowsRead: z.number().int(), rowsTotal: z.number().int(), percent: z.number() }),
  files: z.array(importFileResultSchema),
  error: z.string().nullable(),
});
export type ImportRun = z.infer<typeof importRunSchema>;
export const importRunListSchema = z.object({ items: z.array(importRunSchema) });
export const importAcceptedSchema = z.object({ id: z.string(), status: z.enum(IMPORT_STATUSES) });
export const dataSummarySchema = z.object({
  items: z.number().int(),
  activeItems: z.number().int(),
  stores: z.number().int(),
  inventoryRows: z.number().int(),
  categories: z.number().int(),
  boards: z.number().int(),
  lastImports: z.array(
    z.object({
      kind: z.string(),
      file: z.string(),
      finishedAt: z.string(),
      status: z.enum(IMPORT_STATUSES),
      source: z.enum(['upload', 'cli']),
    }),
  ),
});
export type DataSummary = z.infer<typeof dataSummarySchema>;
