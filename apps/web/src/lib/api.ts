import ky, { isHTTPError, isTimeoutError, type Options } from 'ky';
import useSWR, { preload, type SWRConfiguration } from 'swr';
import type { z } from 'zod';
import { problemSchema } from '@portal/contracts';
import { ApiError } from './api-error';
import { takeBootDataOnceBooted } from './boot';

let accessToken: string | null = null;
let refreshing: Promise<string | null> | null = null;
const expiredListeners = new Set<() => void>();

/**
 * The API's base, absolute on this page's origin: the same URL a browser resolves '/api/v1' to, and one a
 * Request built outside a document (Node's fetch classes in the web tests) can parse too.
 */
const API_BASE = `${globalThis.location?.origin ?? ''}/api/v1`;

/** The auth calls whose 401 is an answer, not an expired token (never refreshed and retried). */
const AUTH_CALL = /\/auth\/(login|refresh|logout)(\?|$)/;

/**
 * The one HTTP client (ARCHITECTURE §1), a ky instance: base /api/v1, cookies sent, JSON accepted, the bearer
 * token from memory on every request, and on a 401 ONE shared refresh then a single retry (sign-out listeners
 * are told when the refresh fails). ky's defaults changed: no automatic retries (ky retries GETs; the limit of 1
 * is for the forced retry after a refresh only), no timeout (ky's is 10 s; a call may set its own, in ms).
 * Nothing here toasts — components decide what to show. Call it through `api` below, which throws ApiError.
 */
const http = ky.create({
  prefixUrl: API_BASE,
  credentials: 'include',
  headers: { Accept: 'application/json' },
  timeout: false,
  retry: { limit: 1, shouldRetry: () => false },
  hooks: {
    beforeRequest: [
      (request) => {
        if (accessToken) request.headers.set('Authorization', `Bearer ${accessToken}`);
      },
    ],
    afterResponse: [
      async (request, _options, response, { retryCount }) => {
        if (response.status !== 401 || retryCount > 0 || AUTH_CALL.test(request.url) || !accessToken) return;
        const token = await refreshAccessToken();
        if (token) return ky.retry({ delay: 0 });
        expiredListeners.forEach((fn) => fn());
      },
    ],
  },
});

export const getAccessToken = () => accessToken;
export function setAccessToken(token: string | null) {
  accessToken = token;
}
/** Called when the session cannot be refreshed any more (the user must sign in again). */
export function onSessionExpired(fn: () => void) {
  expiredListeners.add(fn);
  return () => expiredListeners.delete(fn);
}

/**
 * POST /auth/refresh (the httpOnly cookie; no bearer, outside the client's hooks) once for all callers at the
 * same time; resolves the new token, or null when the session cannot be refreshed (any failure).
 */
export function refreshAccessToken(): Promise<string | null> {
  refreshing ??= ky
    .post(`${API_BASE}/auth/refresh`, { credentials: 'include', retry: 0, timeout: false })
    .json<{ access_token: string }>()
    .then((body) => {
      accessToken = body.access_token;
      return accessToken;
    })
    .catch(() => {
      accessToken = null;
      return null;
    })
    .finally(() => {
      setTimeout(() => {
        refreshing = null;
      }, 0);
    });
  return refreshing;
}

/** A failed API call (status + problem body); defined in lib/api-error, re-exported here. */
export { ApiError };

const networkError = (status: number) =>
  new ApiError(status, {
    type: 'about:blank',
    status,
    code: status === 0 ? 'network_error' : 'unknown',
    title: status === 0 ? 'Network error' : 'Request failed',
    detail: status === 0 ? 'Could not reach the server. Check your connection and try again.' : `The server answered ${status}.`,
  });

/**
 * Turns any failure of a call into an ApiError without reading a body: ky's timeout (or a timed-out signal)
 * becomes code `timeout`, an HTTP error whose body was not read `unknown` with its status, anything else
 * (fetch's network TypeError, an abort) status 0 `network_error`. `api` calls already throw ApiError.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isTimeoutError(error) || (error instanceof Error && error.name === 'TimeoutError')) {
    return new ApiError(0, {
      type: 'about:blank',
      status: 0,
      code: 'timeout',
      title: 'Timeout',
      detail: 'The server did not answer in time.',
    });
  }
  return networkError(isHTTPError(error) ? error.response.status : 0);
}

/** toApiError, with an HTTP error's RFC 9457 problem body read (kept raw in ApiError.body for its extensions). */
async function readApiError(error: unknown): Promise<ApiError> {
  if (!isHTTPError(error)) return toApiError(error);
  const status = error.response.status;
  const text = await error.response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  const parsed = problemSchema.safeParse(body);
  if (parsed.success) return new ApiError(status, parsed.data, body);
  const fallback = networkError(status);
  return new ApiError(status, fallback.problem, body);
}

/** What a call may set (ky's options): `json` or `body`, `searchParams`, `headers`, `signal`, `timeout` (ms). */
export type ApiOptions = Pick<Options, 'json' | 'body' | 'searchParams' | 'headers' | 'signal' | 'timeout'>;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Sends one request; `path` is an API path under /api/v1 (its leading slash is dropped for ky's prefixUrl). */
async function send<T>(method: Method, path: string, read: 'json' | 'blob', options: ApiOptions & Pick<Options, 'fetch'> = {}): Promise<T> {
  try {
    const res = http(path.replace(/^\//, ''), { ...options, method });
    return (await (read === 'json' ? res.json<T>() : res.blob())) as T;
  } catch (e) {
    throw await readApiError(e);
  }
}

/**
 * The calls of the one client, ky's options per call: each answers the parsed JSON body ('' when the answer
 * is empty, e.g. 204) typed as T (unchecked: parse it with its contracts schema), or `blob` the body as a
 * Blob (a file download). Every failure throws ApiError (RFC 9457 problem; network failure status 0 code
 * `network_error`; a call's `timeout` running out code `timeout`).
 */
export const api = {
  get: <T = unknown>(path: string, options?: ApiOptions) => send<T>('get', path, 'json', options),
  post: <T = unknown>(path: string, options?: ApiOptions) => send<T>('post', path, 'json', options),
  put: <T = unknown>(path: string, options?: ApiOptions) => send<T>('put', path, 'json', options),
  patch: <T = unknown>(path: string, options?: ApiOptions) => send<T>('patch', path, 'json', options),
  delete: <T = unknown>(path: string, options?: ApiOptions) => send<T>('delete', path, 'json', options),
  blob: (path: string, options?: ApiOptions) => send<Blob>('get', path, 'blob', options),
  /**
   * POST `form` (multipart) to `path` with upload progress: `onProgress` gets the percent sent, or null when
   * the size is unknown. The bytes go through XMLHttpRequest (fetch upload streaming, ky's onUploadProgress,
   * needs HTTP/2 in Chromium; our server speaks HTTP/1.1); ky still builds the request (bearer) and handles
   * the answer (refresh on 401 and a retry, ApiError), so only the transport differs. Answers the JSON body.
   */
  upload: <T = unknown>(path: string, form: FormData, onProgress: (percent: number | null) => void) =>
    send<T>('post', path, 'json', { body: form, fetch: xhrFetch(form, onProgress) }),
};

/** A fetch for ky that sends `form` by XMLHttpRequest with ky's request URL, method, headers and signal. */
function xhrFetch(form: FormData, onProgress: (percent: number | null) => void): NonNullable<Options['fetch']> {
  return (input) =>
    new Promise<Response>((resolve, reject) => {
      const request = input as Request;
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      xhr.withCredentials = true;
      // The browser writes the multipart boundary of `form`; ky's Request had its own.
      request.headers.forEach((value, name) => {
        if (name !== 'content-type') xhr.setRequestHeader(name, value);
      });
      xhr.upload.onprogress = (e) => onProgress(e.lengthComputable && e.total ? Math.round((e.loaded / e.total) * 100) : null);
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        const empty = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
        resolve(new Response(empty ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText, headers }));
      };
      xhr.onerror = () => reject(new TypeError('Network request failed'));
      xhr.onabort = () => reject(request.signal.reason ?? new DOMException('Aborted', 'AbortError'));
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
    });
}

/** GET `path` and parse the body with `schema` (throws ApiError or ZodError). */
export async function getJson<T extends z.ZodTypeAny>(path: string, schema: T): Promise<z.infer<T>> {
  return schema.parse(await api.get(path));
}

/**
 * GET `path` parsed with `schema`, taking index.html's boot script's answer for it when it has one (lib/boot.ts: once,
 * on a signed-in page load, issue 26) instead of asking again, waiting for the boot answer when the script asks for
 * `path` only after it (takeBootDataOnceBooted); without one, or when it failed, this is getJson.
 */
export async function getBootedJson<T extends z.ZodTypeAny>(path: string, schema: T): Promise<z.infer<T>> {
  const answered = await takeBootDataOnceBooted(path);
  return answered ? schema.parse(answered) : getJson(path, schema);
}

/** SWR hook over getJson; `path` null skips the request. */
export function useApi<T extends z.ZodTypeAny>(path: string | null, schema: T, config?: SWRConfiguration<z.infer<T>, ApiError>) {
  return useSWR<z.infer<T>, ApiError>(path, (p: string) => getJson(p, schema), config);
}

/**
 * useApi whose first fetch of `path` takes index.html's boot script's answer when it asked for it on this page load
 * (lib/boot.ts: a screen without a page-load preload, e.g. the admin dashboard's Data Synch); later fetches ask the API.
 */
export function useBootedApi<T extends z.ZodTypeAny>(path: string | null, schema: T, config?: SWRConfiguration<z.infer<T>, ApiError>) {
  return useSWR<z.infer<T>, ApiError>(path, (p: string) => getBootedJson(p, schema), config);
}

/**
 * Starts GET `path` now, parsed with `schema`; the first useApi with the same path takes the answer (SWR preload).
 * When index.html's boot script already asked for `path` on this page load (a screen's first data, lib/boot.ts), its
 * answer is taken instead (getBootedJson). A failure is left for that hook to see; nothing is thrown here.
 */
export function preloadApi<T extends z.ZodTypeAny>(path: string, schema: T): void {
  void preload(path, (p: string) => getBootedJson(p, schema)).catch(() => undefined);
}
