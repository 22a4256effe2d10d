import axios, { AxiosError, type AxiosRequestConfig } from 'axios';
import useSWR, { preload, type SWRConfiguration } from 'swr';
import type { z } from 'zod';
import { problemSchema } from '@portal/contracts';
import { ApiError } from './api-error';

/**
 * The one axios instance (ARCHITECTURE §1): bearer token from memory, one shared refresh on 401 then a
 * single retry, sign-out listeners when the refresh fails. Errors are normalised into ApiError (the
 * RFC 9457 problem); nothing here toasts — components decide what to show.
 */
export const api = axios.create({ baseURL: '/api/v1', withCredentials: true, headers: { Accept: 'application/json' } });

let accessToken: string | null = null;
let refreshing: Promise<string | null> | null = null;
const expiredListeners = new Set<() => void>();

export const getAccessToken = () => accessToken;
export function setAccessToken(token: string | null) {
  accessToken = token;
}
/** Called when the session cannot be refreshed any more (the user must sign in again). */
export function onSessionExpired(fn: () => void) {
  expiredListeners.add(fn);
  return () => expiredListeners.delete(fn);
}

/** POST /auth/refresh once for all callers at the same time; resolves the new token or null. */
export function refreshAccessToken(): Promise<string | null> {
  refreshing ??= axios
    .post('/api/v1/auth/refresh', undefined, { withCredentials: true })
    .then((r) => {
      accessToken = r.data.access_token as string;
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

api.interceptors.request.use((config) => {
  if (accessToken) config.headers.set('Authorization', `Bearer ${accessToken}`);
  return config;
});

api.interceptors.response.use(undefined, async (error: AxiosError) => {
  const original = error.config as (AxiosRequestConfig & { _retried?: boolean }) | undefined;
  const url = original?.url ?? '';
  if (error.response?.status === 401 && original && !original._retried && !/\/auth\/(login|refresh|logout)/.test(url) && accessToken) {
    original._retried = true;
    const token = await refreshAccessToken();
    if (token) return api.request(original);
    expiredListeners.forEach((fn) => fn());
  }
  throw toApiError(error);
});

/** Turns any axios failure into an ApiError (network failures become status 0; timeouts code `timeout`). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as AxiosError;
  const status = e.response?.status ?? 0;
  const parsed = problemSchema.safeParse(e.response?.data);
  if (parsed.success) return new ApiError(status, parsed.data, e.response?.data);
  // A request that ran out of its `timeout` (axios ECONNABORTED / ETIMEDOUT): code `timeout`, status 0.
  if (status === 0 && (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT')) {
    return new ApiError(0, {
      type: 'about:blank',
      status: 0,
      code: 'timeout',
      title: 'Timeout',
      detail: 'The server did not answer in time.',
    });
  }
  return new ApiError(
    status,
    {
      type: 'about:blank',
      status,
      code: status === 0 ? 'network_error' : 'unknown',
      title: status === 0 ? 'Network error' : 'Request failed',
      detail: status === 0 ? 'Could not reach the server. Check your connection and try again.' : `The server answered ${status}.`,
    },
    e.response?.data,
  );
}

/** GET `path` and parse the body with `schema` (throws ApiError or ZodError). */
export async function getJson<T extends z.ZodTypeAny>(path: string, schema: T): Promise<z.infer<T>> {
  const res = await api.get(path);
  return schema.parse(res.data);
}

/** SWR hook over getJson; `path` null skips the request. */
export function useApi<T extends z.ZodTypeAny>(path: string | null, schema: T, config?: SWRConfiguration<z.infer<T>, ApiError>) {
  return useSWR<z.infer<T>, ApiError>(path, (p: string) => getJson(p, schema), config);
}

/**
 * Starts GET `path` now, parsed with `schema`; the first useApi with the same path takes the answer (SWR preload).
 * A failure is left for that hook to see; nothing is thrown here.
 */
export function preloadApi<T extends z.ZodTypeAny>(path: string, schema: T): void {
  void preload(path, (p: string) => getJson(p, schema)).catch(() => undefined);
}
