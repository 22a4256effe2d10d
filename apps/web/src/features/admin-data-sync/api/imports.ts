import { dataSummarySchema, importAcceptedSchema, importRunListSchema, importRunSchema, type ImportRun } from '@portal/contracts';
import { api, getJson, useBootedApi } from '@/lib/api';

/** Data synch API (spec 002 §2, issue 13 §6): what the portal holds, the recent import runs, an upload and its run. */

/** GET /admin/imports/summary (on an /admin page load, the boot script's answer: lib/api useBootedApi). */
export const useDataSummary = () => useBootedApi('/admin/imports/summary', dataSummarySchema);
/** GET /admin/imports: the recent runs, CLI imports included (on an /admin page load, the boot script's answer). */
export const useImportRuns = () => useBootedApi('/admin/imports', importRunListSchema);

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
