import request from 'supertest';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';
import { storeItems, type StoreItem } from '../orders/test-support';

/**
 * One idempotency module for orders and integrations (issue 25 §5), the integration path under concurrency:
 * N identical inventory pushes sent at once with one Idempotency-Key have exactly one effect. One request
 * runs the upsert; every other one either replays its answer (Idempotent-Replayed: true, the same body) or
 * is told the key is still in use (409 idempotency_in_progress); the stored key row, the audit log and the
 * inventory show one write. A retry afterwards replays; the key with another body → 422.
 */
const S = FIXTURE_STORES;
const N = 8;
let t: TestContext;
let fx: Fixtures;
let items: StoreItem[];
let key: string;
let keyId: string;

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  items = await storeItems(t.db, S.central, 5);
  const k = await request(t.app)
    .post('/api/v1/admin/api-keys')
    .set('Authorization', `Bearer ${tokenFor(t, fx.users.admin)}`)
    .send({ name: 'wms', storeId: S.central, scopes: ['inventory:write'] });
  expect(k.status).toBe(201);
  key = k.body.key;
  keyId = k.body.id;
});
afterAll(async () => {
  await t.close();
});

const push = (body: unknown, idempotencyKey: string) =>
  request(t.app)
    .put(`/api/v1/integrations/stores/${S.central}/inventory`)
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', idempotencyKey)
    .send(body as object);

describe('Idempotency-Key on API-key writes under concurrency', () => {
  it(`when ${N} identical pushes with one key arrive at once, then exactly one runs; the others replay it or get 409 idempotency_in_progress`, async () => {
    const body = items.map((i, n) => ({ itemCode: i.code, onHand: 700 + n }));
    const audits = () =>
      t
        .db('audit_log')
        .where({ action: 'inventory.upserted', entity_id: String(S.central) })
        .count({ n: '*' });
    const [{ n: auditsBefore }] = await audits();

    const answers = await Promise.all(Array.from({ length: N }, () => push(body, 'burst-1')));

    const ran = answers.filter((a) => a.status === 200 && a.headers['idempotent-replayed'] === undefined);
    const replayed = answers.filter((a) => a.status === 200 && a.headers['idempotent-replayed'] === 'true');
    const busy = answers.filter((a) => a.status === 409);
    expect(ran).toHaveLength(1);
    expect(replayed.length + busy.length).toBe(N - 1);
    // The one run changed the five rows; a second run would have answered them unchanged.
    expect(ran[0].body).toEqual({ created: 0, updated: 5, unchanged: 0, removed: 0, dryRun: false, errors: [] });
    for (const r of replayed) expect(r.body).toEqual(ran[0].body);
    for (const b of busy) expect(b.body).toMatchObject({ status: 409, code: 'idempotency_in_progress' });

    // The stored rows: one key row holding the answer, one audited write, the inventory as pushed.
    const keyRows = await t.db('integration_requests').where({ api_key_id: keyId, key: 'burst-1' });
    expect(keyRows).toHaveLength(1);
    expect(keyRows[0]).toMatchObject({ status_code: 200, response_body: ran[0].body });
    expect(keyRows[0].completed_at).toBeInstanceOf(Date);
    const [{ n: auditsAfter }] = await audits();
    expect(Number(auditsAfter) - Number(auditsBefore)).toBe(1);
    const stock = await t
      .db('inventory')
      .where({ store_id: S.central })
      .whereIn(
        'item_id',
        items.map((i) => i.id),
      )
      .orderBy('on_hand')
      .pluck('on_hand');
    expect(stock).toEqual([700, 701, 702, 703, 704]);

    // Afterwards: the same request replays; the key with another body is refused, nothing written.
    const again = await push(body, 'burst-1');
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(ran[0].body);
    const other = await push([{ itemCode: items[0].code, onHand: 1 }], 'burst-1');
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused', detail: 'This Idempotency-Key was used for another request' });
    expect(await t.db('inventory').where({ store_id: S.central, item_id: items[0].id }).first('on_hand')).toEqual({ on_hand: 700 });
  });

  it('when the request holding a key failed (rows refused), then the key is free: a corrected push with it runs', async () => {
    const bad = await push([{ itemCode: 'NO-SUCH-ITEM', onHand: 3 }], 'burst-2');
    expect(bad.status).toBe(422);
    expect(await t.db('integration_requests').where({ api_key_id: keyId, key: 'burst-2' })).toEqual([]);
    const fixed = await push([{ itemCode: items[1].code, onHand: 3 }], 'burst-2');
    expect(fixed.status).toBe(200);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('when a key row is held by a request that died (its lease over), then the next retry takes it over and runs', async () => {
    const body = [{ itemCode: items[2].code, onHand: 9 }];
    const row = () => t.db('integration_requests').where({ api_key_id: keyId, key: 'burst-3' });
    expect((await push(body, 'burst-3')).status).toBe(200);
    // As if that request had died holding the key: no answer recorded, its lease still running.
    await row().update({
      status_code: null,
      response_body: null,
      completed_at: null,
      lease_expires_at: t.db.raw(`now() + interval '1 minute'`),
    });
    const held = await push(body, 'burst-3');
    expect(held.status).toBe(409);
    expect(held.body.code).toBe('idempotency_in_progress');
    expect((await push([{ itemCode: items[2].code, onHand: 10 }], 'burst-3')).status).toBe(422);
    await row().update({ lease_expires_at: t.db.raw(`now() - interval '1 second'`) });
    const taken = await push(body, 'burst-3');
    expect(taken.status).toBe(200);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
    expect(taken.body).toMatchObject({ unchanged: 1 });
    expect(await row().first('status_code', 'response_body')).toEqual({ status_code: 200, response_body: taken.body });
  });
});
