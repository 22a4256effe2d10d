/** Test helpers for the administration tests: extra users, real sign-ins, audit counts. */
import request from 'supertest';
import bcrypt from 'bcrypt';
import { grantRoleAtOutlets } from '@portal/seeds';
import { FIXTURE_PASSWORD, loginAs, type TestContext } from '../../test/harness';

export type TestUser = { id: string; email: string };

/**
 * Inserts a user with a profile and at most one role (by code) "with the given outlets", as the upgrade to
 * scoped grants converts it (seeds' grantRoleAtOutlets: outlet roles at the outlets, store roles at their stores…).
 */
export async function makeUser(
  t: TestContext,
  email: string,
  role: string | null,
  outlets: number[],
  names: [string, string] = ['Test', 'User'],
): Promise<TestUser> {
  const hash = await bcrypt.hash(FIXTURE_PASSWORD, 4);
  const [row] = await t.db('users').insert({ email, password_hash: hash }).returning('id');
  await t.db('user_profiles').insert({ user_id: row.id, first_name: names[0], last_name: names[1], full_name: names.join(' ') });
  if (role) await grantRoleAtOutlets(t.db, row.id, role, outlets);
  return { id: row.id, email };
}

/**
 * A request helper signing each user in once over HTTP (a live session, so the bearer token passes every
 * session check): `api('get', '/admin/users', user)`, `await api('put', path, user).send(body)`.
 */
export function apiClient(t: TestContext) {
  const tokens = new Map<string, Promise<string>>();
  const bearer = (u: TestUser) => {
    if (!tokens.has(u.id)) tokens.set(u.id, loginAs(t.app, u.email));
    return tokens.get(u.id)!;
  };
  return (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, u?: TestUser) => {
    const send = async (body?: object) => {
      const r = request(t.app)[method](`/api/v1${path}`);
      if (u) r.set('Authorization', `Bearer ${await bearer(u)}`);
      return body === undefined ? r : r.send(body);
    };
    // Lazy: awaiting sends without a body, `.send(body)` sends with one (never both).
    return {
      then<A = request.Response, B = never>(
        ok?: ((r: request.Response) => A | PromiseLike<A>) | null,
        ko?: ((e: unknown) => B | PromiseLike<B>) | null,
      ) {
        return send().then(ok, ko);
      },
      send: (body: object) => send(body),
    };
  };
}

/** Audit rows of admin writes (sign-ins are audited too and not counted). */
export async function adminAuditCount(t: TestContext): Promise<number> {
  return Number((await t.db('audit_log').whereNot('action', 'like', 'auth.%').count<{ n: number }[]>({ n: '*' }).first())!.n);
}
export const problemCode = (res: request.Response) => JSON.parse(res.text).code as string;
