import { problemSchema } from '@portal/contracts';
import { api, ApiError, toApiError } from './api';

/**
 * Fetches a file the API serves behind the bearer (an invoice or statement PDF, issue 28 §3) through the one
 * axios instance (so the session refresh applies), then saves it as `filename` through an object URL.
 * A link cannot carry the Authorization header, hence the blob. Throws ApiError (the problem body is read
 * back from the blob, so a 404 or 403 keeps its code and detail).
 */
export async function downloadFile(path: string, filename: string): Promise<void> {
  let blob: Blob;
  try {
    const res = await api.get<Blob>(path, { responseType: 'blob', headers: { Accept: 'application/pdf, application/problem+json' } });
    blob = res.data;
  } catch (e) {
    throw await withParsedBody(toApiError(e));
  }
  saveBlob(blob, filename);
}

/** Hands a blob to the browser as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  if (typeof URL.createObjectURL !== 'function') return; // jsdom: nothing to save to
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A failure whose body is a Blob (responseType 'blob') gets its JSON problem read back in. */
async function withParsedBody(err: ApiError): Promise<ApiError> {
  if (typeof Blob === 'undefined' || !(err.body instanceof Blob)) return err;
  try {
    const json: unknown = JSON.parse(await err.body.text());
    const parsed = problemSchema.safeParse(json);
    return parsed.success ? new ApiError(err.status, parsed.data, json) : err;
  } catch {
    return err;
  }
}
