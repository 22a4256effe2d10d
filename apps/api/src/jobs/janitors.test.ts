import type { Knex } from 'knex';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createTestContext, type TestContext } from '../test/harness';
import { seedFixtures, type Fixtures } from '../test/fixtures';
import { createJanitors, JANITOR_QUEUE, runJanitors } from './janitors';

/** The janitors remove expired rows, keep live ones and what orders still reference. */
let t: TestContext;
let f: Fixtures;
beforeAll(async () => {
  t = await createTestContext({ env: { AUDIT_RETENTION_DAYS: '30' } });
  f = await seedFixtures(t.db);
});
afterAll(async () => {
  await t.close();
});

const hash = () => createHash('sha256').update(randomBytes(16)).digest('hex');
const ago = (sql: string) => t.db.raw(`now() - interval '${sql}'`);
const ahead = (sql: string) => t.db.raw(`now() + interval '${sql}'`);

describe('janitors', () => {
  it('when a pass runs, then expired checkout sessions, idempotency keys, refresh sessions, reset tokens and old audit rows go, and everything live stays', async () => {
    const user = f.users.buyer.id;
    const [cart] = await t
      .db('carts')
      .insert({ user_id: user, outlet_id: f.outlets.dsm, store_id: 2190, status: 'abandoned' })
      .returning('id');
    const session = (expires: Knex.Raw) =>
      t
        .db('checkout_sessions')
        .insert({ token_hash: hash(), user_id: user, cart_id: cart.id, total: '10.00', expires_at: expires })
        .returning('id')
        .then(([r]) => r.id as string);
    const expiredCs = await session(ago('2 days'));
    const liveCs = await session(ahead('10 minutes'));
    const orderedCs = await session(ago('2 days'));
    const [order] = await t
      .db('orders')
      .insert({
        order_number: `ORD-${Date.now()}-JANITOR1`,
        user_id: user,
        store_id: 2190,
        outlet_id: f.outlets.dsm,
        checkout_session_id: orderedCs,
        payment_method: 'in_store',
        payment_status: 'not_required',
        subtotal: '10.00',
        total_amount: '10.00',
        customer_name: 'Blake Buyer',
        customer_email: 'buyer@example.com',
      })
      .returning('id');

    const key = (k: string, created: ReturnType<typeof ago>, completed: ReturnType<typeof ago> | null) =>
      t.db('idempotency_keys').insert({
        user_id: user,
        key: k,
        scope: 'orders',
        request_hash: hash(),
        created_at: created,
        completed_at: completed,
        status_code: completed ? 201 : null,
        lease_expires_at: ago('1 hour'),
      });
    await key('old-done', ago('2 days'), ago('2 days'));
    await key('recent-done', ago('1 hour'), ago('1 hour'));
    await key('old-unfinished', ago('8 days'), null);
    await key('recent-unfinished', ago('2 days'), null);

    const authSession = (expires: Knex.Raw, revoked: Knex.Raw | null) =>
      t
        .db('auth_sessions')
        .insert({ user_id: user, family_id: randomUUID(), token_hash: hash(), expires_at: expires, revoked_at: revoked })
        .returning('id')
        .then(([r]) => r.id as string);
    const pastLifetime = await authSession(ago('1 minute'), null);
    const revokedLongAgo = await authSession(ahead('10 days'), ago('2 days'));
    const revokedJustNow = await authSession(ahead('10 days'), ago('1 minute'));
    const live = await authSession(ahead('10 days'), null);

    const resetToken = (expires: Knex.Raw, used: Knex.Raw | null) =>
      t
        .db('password_reset_tokens')
        .insert({ user_id: user, token_hash: hash(), expires_at: expires, used_at: used })
        .returning('id')
        .then(([r]) => r.id as string);
    const expiredToken = await resetToken(ago('2 days'), null);
    const usedToken = await resetToken(ahead('1 hour'), ago('2 days'));
    const liveToken = await resetToken(ahead('1 hour'), null);

    await t.db('audit_log').insert([
      { action: 'janitor.test_old', occurred_at: ago('31 days') },
      { action: 'janitor.test_recent', occurred_at: ago('29 days') },
    ]);

    const counts = await runJanitors(t.db, t.config);
    expect(counts).toEqual({ checkoutSessions: 1, idempotencyKeys: 2, refreshSessions: 2, resetTokens: 2, auditRows: 1 });

    expect((await t.db('checkout_sessions').whereIn('id', [expiredCs, liveCs, orderedCs]).pluck('id')).sort()).toEqual(
      [liveCs, orderedCs].sort(),
    );
    expect(await t.db('orders').where({ id: order.id }).first('checkout_session_id')).toEqual({ checkout_session_id: orderedCs });
    expect((await t.db('idempotency_keys').where({ user_id: user }).pluck('key')).sort()).toEqual(['recent-done', 'recent-unfinished']);
    expect((await t.db('auth_sessions').whereIn('id', [pastLifetime, revokedLongAgo, revokedJustNow, live]).pluck('id')).sort()).toEqual(
      [revokedJustNow, live].sort(),
    );
    expect(await t.db('password_reset_tokens').whereIn('id', [expiredToken, usedToken, liveToken]).pluck('id')).toEqual([liveToken]);
    expect(await t.db('audit_log').whereIn('action', ['janitor.test_old', 'janitor.test_recent']).pluck('action')).toEqual([
      'janitor.test_recent',
    ]);

    // A second pass finds nothing more.
    expect(await runJanitors(t.db, t.config)).toEqual({
      checkoutSessions: 0,
      idempotencyKeys: 0,
      refreshSessions: 0,
      resetTokens: 0,
      auditRows: 0,
    });
  });

  it('when the janitors start, then their pg-boss schedule uses JANITOR_CRON', async () => {
    const janitors = createJanitors({
      connectionString: t.config.databaseUrl!,
      db: t.db,
      config: { ...t.config, janitorCron: '*/5 * * * *' },
      logger: t.ctx.logger,
    });
    await janitors.start();
    try {
      const r = await t.db.raw('SELECT name, cron FROM pgboss.schedule WHERE name = ?', [JANITOR_QUEUE]);
      expect(r.rows).toEqual([{ name: JANITOR_QUEUE, cron: '*/5 * * * *' }]);
    } finally {
      await janitors.stop();
    }
  });

  it('when AUDIT_RETENTION_DAYS is below 30, then the config is refused (the lockout looks 30 days back)', async () => {
    const { loadConfig } = await import('../config');
    expect(() => loadConfig({ NODE_ENV: 'test', AUDIT_RETENTION_DAYS: '7' })).toThrow(/AUDIT_RETENTION_DAYS/);
  });
});
