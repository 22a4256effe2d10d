import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../app';
import { startNotifications, type NotificationListener } from '../../db/notifications';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { waitFor } from '../../test/wait';
import { principalChanges } from './principal-cache';

/**
 * The catalog's principal cache across API processes (issue 29 §3, principal-cache.ts): two app instances on
 * one database, each with its own principal caches (CATALOG_PRINCIPAL_CACHE_MS set to a minute here, longer than any wait below, so only
 * a notification can empty them). A grant removed, a session revoked or a role's permissions changed by
 * another process (plain SQL here, as an operator or the other replica would) is refused by the second instance
 * once the notification arrives; with the listener down the second instance keeps serving its cached principal.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let replica: Express;
let listener: NotificationListener | undefined;

const listen = async () => {
  listener = startNotifications(t.config.databaseUrl!, t.ctx.logger, [principalChanges]);
  await listener.ready;
};

beforeAll(async () => {
  t = await createTestContext({ env: { CATALOG_PRINCIPAL_CACHE_MS: '60000' } });
  fx = await seedFixtures(t.db);
  replica = createApp(t.ctx);
  await listen();
});
afterAll(async () => {
  await listener?.stop();
  await t.close();
});

const catalog = (app: Express, token: string, storeId: number) =>
  request(app).get(`/api/v1/stores/${storeId}/products?search=vodka`).set('Authorization', `Bearer ${token}`);

/** A fresh token of `who`, its session written (through t.app, which waits for it) and cached by the replica. */
async function warmed(who: 'buyer' | 'otherBuyer', storeId: number): Promise<string> {
  const token = tokenFor(t, fx.users[who]);
  expect((await catalog(t.app, token, storeId)).status).toBe(200);
  expect((await catalog(replica, token, storeId)).status).toBe(200);
  return token;
}

/**
 * Waits until the replica answers `status` (the refusal of a dropped principal: 401, or 403 without the codes).
 * Before the notification arrives, a removed grant may already answer 404: the row's reach is read live.
 */
const refusedBy = (app: Express, token: string, storeId: number, status: number) =>
  waitFor(`the replica to answer ${status}`, async () => (await catalog(app, token, storeId)).status === status);

describe('principal cache across processes', () => {
  it('when the listener is down, then a revoked session is refused by a fresh process but not by the one that cached it; once listening again, by both', async () => {
    await listener!.stop();
    listener = undefined;
    const token = await warmed('otherBuyer', S.davenport);
    const other = createApp(t.ctx);
    await t.db('auth_sessions').where({ user_id: fx.users.otherBuyer.id }).update({ revoked_at: t.db.fn.now() });
    expect((await catalog(other, token, S.davenport)).status).toBe(401);
    expect((await catalog(replica, token, S.davenport)).status).toBe(200);
    await listen();
    expect((await catalog(replica, token, S.davenport)).status).toBe(401);
  });

  it("when another process removes a user's grants, then the replica refuses the user's cached principal", async () => {
    const token = await warmed('buyer', S.central);
    await t.db('role_grants').where({ user_id: fx.users.buyer.id }).delete();
    await refusedBy(replica, token, S.central, 403);
  });

  it("when another process revokes a user's session, then the replica refuses that session", async () => {
    await t.db('auth_sessions').where({ user_id: fx.users.otherBuyer.id }).update({ revoked_at: null });
    const token = await warmed('otherBuyer', S.davenport);
    await t.db('auth_sessions').where({ user_id: fx.users.otherBuyer.id }).update({ revoked_at: t.db.fn.now() });
    await refusedBy(replica, token, S.davenport, 401);
  });

  it("when a role's permissions change, then every user's cached principal is dropped", async () => {
    await t.db('auth_sessions').where({ user_id: fx.users.otherBuyer.id }).update({ revoked_at: null });
    const token = await warmed('otherBuyer', S.davenport);
    const roles = t.db('role_grants').where({ user_id: fx.users.otherBuyer.id }).select('role_id');
    await t.db('role_permissions').whereIn('role_id', roles).delete();
    await refusedBy(replica, token, S.davenport, 403);
  });

  it('when a user changes without touching what a principal holds (last sign-in), then nothing is announced', async () => {
    const heard: string[] = [];
    const probe = startNotifications(t.config.databaseUrl!, t.ctx.logger, [
      { channels: ['principals_changed'], onNotification: (_c, p) => heard.push(p), onListening: () => undefined, onLost: () => undefined },
    ]);
    try {
      await probe.ready;
      await t.db('auth_sessions').where({ user_id: fx.users.admin.id }).update({ last_used_at: t.db.fn.now() });
      await t.db('users').where({ id: fx.users.admin.id }).update({ is_active: false });
      await waitFor('the deactivation to be announced', () => heard.includes(fx.users.admin.id));
      expect(heard).toEqual([fx.users.admin.id]);
    } finally {
      await probe.stop();
    }
  });
});
