import { api } from './api';

/**
 * Fetches a file the API serves behind the bearer (an invoice or statement PDF, issue 28 §3) through the one
 * client, lib/api (so the session refresh applies), then saves it as `filename` through an object URL.
 * A link cannot carry the Authorization header, hence the blob. Throws ApiError (a 404 or 403 keeps its
 * problem's code and detail: lib/api reads the error body whatever type was asked for).
 */
export async function downloadFile(path: string, filename: string): Promise<void> {
  const blob = await api.blob(path, { headers: { Accept: 'application/pdf, application/problem+json' } });
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
