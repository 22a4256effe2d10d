import { parseSyntheticSpec, seedSynthetic, SyntheticError } from '@portal/seeds';
import { createTestContext, type TestContext } from '../test/harness';
import { seedFixtures } from '../test/fixtures';

/**
 * The synthetic scale dataset (`npm run db:seed -- --synthetic users=N,outlets=N`, seeds/synthetic.ts): the
 * spec's parser, the rows and grants it makes, idempotence, and the refusal in production.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await seedFixtures(t.db);
});
afterAll(() => t.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table's query
const count = async (q: { count: (...a: any[]) => any }) => Number((await q.count('* as n'))[0].n);

describe('parseSyntheticSpec', () => {
  it('reads kind=count pairs and names what is wrong', () => {
    expect(parseSyntheticSpec('users=100000, outlets=10000')).toEqual({ users: 100000, outlets: 10000 });
    expect(() => parseSyntheticSpec('')).toThrow(SyntheticError);
    expect(() => parseSyntheticSpec('people=5')).toThrow(/unknown kind "people"/);
    expect(() => parseSyntheticSpec('users=ten')).toThrow(/not kind=count/);
    expect(() => parseSyntheticSpec('users=0')).toThrow(/from 1 to/);
    expect(() => parseSyntheticSpec('users=5,users=6')).toThrow(/twice/);
  });
});

describe('seedSynthetic', () => {
  it('makes outlets linked to stores and users with profiles and spread grants; a rerun adds nothing', async () => {
    const first = await seedSynthetic(t.db, { users: 300, outlets: 40 }, { production: false });
    expect(first.map((r) => [r.kind, r.created])).toEqual([
      ['outlets', 40],
      ['users', 300],
    ]);
    expect(await count(t.db('outlets').where('outlet_code', 'like', 'SYN-O-%'))).toBe(40);
    expect(
      await count(t.db('store_outlets as so').join('outlets as o', 'o.id', 'so.outlet_id').where('o.outlet_code', 'like', 'SYN-O-%')),
    ).toBe(40);
    const users = t.db('users').where('email', 'like', 'syn-user-%');
    expect(await count(users.clone())).toBe(300);
    expect(await count(users.clone().whereNotExists(t.db('role_grants as g').whereRaw('g.user_id = users.id')))).toBe(0);
    expect(await count(users.clone().where('is_active', false))).toBe(15);
    const byScope = await t
      .db('role_grants as g')
      .join('users as u', 'u.id', 'g.user_id')
      .where('u.email', 'like', 'syn-user-%')
      .groupBy('g.scope_type')
      .select('g.scope_type', t.db.raw('count(*)::int AS n'));
    const n = Object.fromEntries(byScope.map((r) => [r.scope_type, r.n]));
    expect(n.board).toBe(3);
    expect(n.store).toBe(27);
    expect(n.outlet).toBeGreaterThan(270);
    const again = await seedSynthetic(t.db, { users: 300, outlets: 40 }, { production: false });
    expect(again.map((r) => r.created)).toEqual([0, 0]);
    expect(await count(t.db('users').where('email', 'like', 'syn-user-%'))).toBe(300);
    const sorted = await t.db('users').where('email', 'syn-user-000001@example.com').first('sort_name', 'has_grant');
    expect(sorted).toEqual({ sort_name: expect.stringMatching(/ 1$/), has_grant: true });
  });

  it('is refused in production', async () => {
    await expect(seedSynthetic(t.db, { users: 1 }, { production: true })).rejects.toThrow(/refused when NODE_ENV=production/);
  });
});
