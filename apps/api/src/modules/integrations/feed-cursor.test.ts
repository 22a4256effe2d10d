import request from 'supertest';
import { createApp } from '../../app';
import { startNotifications } from '../../db/notifications';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { placeInStoreOrder } from '../orders/test-support';
import { FeedIndex } from './feed-index';
import { feedIdentityFor } from './feed-identity';

/**
 * Feed cursors that cannot be right are refused (issue 23 §4): a cursor past the newest event → 400
 * cursor_ahead with the newest seq; every page names its feedId, made when the database is created or
 * restored, and a cursor of another feed → 409 feed_reset.
 */
const S = FIXTURE_STORES;
let t: TestContext;
let fx: Fixtures;
let key: string;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  await placeInStoreOrder(t, fx, S.central);
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name: 'feed', storeId: S.central, scopes: ['orders:read'] });
  key = k.body.key;
});
afterAll(async () => {
  await t.close();
});
const feed = (query: string, app = t.app) =>
  request(app).get(`/api/v1/integrations/order-events?${query}`).set('Authorization', `Bearer ${key}`);
const newest = async () => Number((await t.db('order_events').max({ m: 'seq' }))[0].m);

describe('a cursor past the newest event', () => {
  it('when after is past the newest seq, then 400 cursor_ahead names the newest seq; at the newest seq the page is empty and resumes there', async () => {
    const last = await newest();
    const ahead = await feed('after=1000000000');
    expect(ahead.status).toBe(400);
    expect(ahead.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(ahead.body).toMatchObject({ code: 'cursor_ahead', newestSeq: last, feedId: expect.any(String) });
    expect(ahead.body.detail).toContain(`seq ${last}`);
    const tail = await feed(`after=${last}`);
    expect(tail.status).toBe(200);
    expect(tail.body).toMatchObject({ items: [], nextAfter: last });
    expect((await feed(`after=${last + 1}`)).body.code).toBe('cursor_ahead');
  });

  it('when the index answers pages, then a cursor past its events is still checked against the database and refused', async () => {
    const index = new FeedIndex(t.db);
    const indexed = createApp({ ...t.ctx, feedReader: index });
    const listener = startNotifications(t.config.databaseUrl!, t.ctx.logger, [index.subscriber]);
    try {
      await listener.ready;
      for (let i = 0; i < 50 && !index.isLive; i++) await new Promise((ok) => setTimeout(ok, 50));
      expect(index.isLive).toBe(true);
      const last = await newest();
      expect((await feed(`after=${last}`, indexed)).body).toMatchObject({ items: [], nextAfter: last });
      const ahead = await feed(`after=${last + 5}`, indexed);
      expect(ahead.status).toBe(400);
      expect(ahead.body).toMatchObject({ code: 'cursor_ahead', newestSeq: last });
    } finally {
      await listener.stop();
    }
  });
});

describe('the feed id', () => {
  it('when pages are read, then each names the same feedId, and a cursor sent with another feedId → 409 feed_reset naming the current one', async () => {
    const first = await feed('after=0&limit=1');
    expect(first.status).toBe(200);
    expect(first.body.feedId).toMatch(/^[0-9a-f-]{36}$/);
    const next = await feed(`after=${first.body.nextAfter}&feedId=${first.body.feedId}`);
    expect(next.status).toBe(200);
    expect(next.body.feedId).toBe(first.body.feedId);
    const other = await feed(`after=${first.body.nextAfter}&feedId=00000000-0000-4000-8000-000000000000`);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'feed_reset', feedId: first.body.feedId, newestSeq: await newest() });
  });

  it('when the database is a copy of another (its tests are cloned from a template), then its feedId is its own, stored with its fingerprint', async () => {
    const row = await t.db('feed_identity').first();
    const live = (await t.db.raw('SELECT feed_fingerprint() AS f')).rows[0].f;
    expect(row.fingerprint).toBe(live);
    const template = await t.db.raw(`SELECT oid::text FROM pg_database WHERE datname = ?`, [process.env.PORTAL_TEST_TEMPLATE!]);
    expect(live.split(':')[0]).not.toBe(template.rows[0].oid);
  });

  it('when the database is restored (the stored fingerprint is not the live one), then the feed gets a new feedId, an old cursor → 409 feed_reset, and the index is told', async () => {
    const before = (await feed('after=0&limit=1')).body.feedId as string;
    const identity = feedIdentityFor(t.db);
    const changed = jest.fn();
    const off = identity.onChange(changed);
    try {
      // What a dump restored elsewhere carries: the row of the database it was taken from.
      await t.db('feed_identity').update({ fingerprint: '1:2:00000001' });
      identity.invalidate();
      const old = await feed(`after=0&feedId=${before}`);
      expect(old.status).toBe(409);
      expect(old.body.code).toBe('feed_reset');
      expect(old.body.feedId).not.toBe(before);
      expect(changed).toHaveBeenCalledTimes(1);
      const fresh = await feed(`after=0&feedId=${old.body.feedId}`);
      expect(fresh.status).toBe(200);
      expect(fresh.body.feedId).toBe(old.body.feedId);
      expect((await t.db('feed_identity').first()).feed_id).toBe(old.body.feedId);
    } finally {
      off();
    }
  });
});
