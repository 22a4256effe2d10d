import request from 'supertest';
import type { Express } from 'express';
import type { FieldError, Problem } from '@portal/contracts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Caller = Record<Method, (path: string) => request.Test>;

/**
 * Supertest calls under /api/v1 as a caller: `as(t.app, token).get('/me')` sends `Authorization: Bearer
 * <token>`; `as(t.app, null)` calls signed out. The path is the API path without /api/v1.
 */
export function as(app: Express, token: string | null): Caller {
  const call = (method: Method) => (path: string) => {
    const req = request(app)[method](`/api/v1${path}`);
    return token === null ? req : req.set('Authorization', `Bearer ${token}`);
  };
  return { get: call('get'), post: call('post'), put: call('put'), patch: call('patch'), delete: call('delete') };
}

/**
 * The problem+json body of an answer (supertest leaves application/problem+json as text). `errors` is typed
 * present so a test can assert on the field errors directly (when absent, such an assertion fails).
 */
export function problem(res: { text: string }): Problem & { errors: FieldError[] } {
  return JSON.parse(res.text) as Problem & { errors: FieldError[] };
}
