import { dataSummarySchema, importAcceptedSchema, importRunListSchema, importRunSchema, type ImportRun } from '@portal/contracts';
import { api, getJson, useApi } from '@/lib/api';

/** Data synch API (spec 002 §2, issue 13 §6): what the portal holds, the recent import runs, an upload and its run. */

/** GET /admin/imports/summary. */
export const useDataSummary = () => useApi('/admin/imports/summary', dataSummarySchema);
/** GET /admin/imports: the recent runs, CLI imports included. */
export const useImportRuns = () => useApi('/admin/imports', importRunListSchema);

/**
 * POST /admin/imports (multipart `files`): starts an import; `onProgress` gets the upload percent (null when
 * the size is unknown). Answers the run id. Throws ApiError.
 */
export async function uploadImport(files: File[], onProgress: (percent: number | null) => void): Promise<string> {
  const form = new FormData();
  for (const f of files) form.append('files', f, f.name);
  return importAcceptedSchema.parse(await api.upload('/admin/imports', form, onProgress)).id;
}

/** GET /admin/imports/{id}: one run with its progress and per-file result. */
export const getImportRun = (id: string): Promise<ImportRun> => getJson(`/admin/imports/${id}`, importRunSchema);
