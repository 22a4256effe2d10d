import request from 'supertest';
import { productPageSchema } from '@portal/contracts';
import { createTestContext, tokenFor, type TestContext } from '../../test/harness';
import { problem } from '../../test/http';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../../test/fixtures';

/**
 * Browsing a store's catalog needs bcc.carts.use or bcc.items.view / bcc.item.view (so the
 * spec 001 §2 disabled Add to Cart with its title is reachable); adding to a cart still needs bcc.carts.use.
 */
let t: TestContext;
let fx: Fixtures;
const S = FIXTURE_STORES;
const users: Record<'items' | 'item' | 'none', { id: string; email: string }> = {} as never;

/** A user of the Des Moines outlet whose only role grants `codes`. */
async function userWith(email: string, roleCode: string, codes: string[]) {
  const [u] = await t.db('users').insert({ email, password_hash: 'x', is_active: true }).returning('id');
  await t.db('user_profiles').insert({ user_id: u.id, first_name: 'Cat', last_name: 'Viewer' });
  const [role] = await t.db('roles').insert({ code: roleCode, role_name: roleCode, role_level: 70, scope_type: 'outlet' }).returning('id');
  for (const code of codes) {
    const p = await t.db('permissions').where({ code }).first('id');
    await t.db('role_permissions').insert({ role_id: role.id, permission_id: p!.id });
  }
  await t.db('role_grants').insert({ user_id: u.id, role_id: role.id, scope_type: 'outlet', outlet_id: fx.outlets.dsm });
  return { id: u.id as string, email };
}

beforeAll(async () => {
  t = await createTestContext();
  fx = await seedFixtures(t.db);
  users.items = await userWith('items-viewer@example.com', 'catalog_viewer', ['bcc.items.view', 'bcc.outlets.read_assigned']);
  users.item = await userWith('item-viewer@example.com', 'legacy_item_viewer', ['bcc.item.view']);
  users.none = await userWith('nothing@example.com', 'reads_outlets_only', ['bcc.outlets.read_assigned']);
});
afterAll(async () => {
  await t.close();
});

const as = (who: keyof typeof users) => `Bearer ${tokenFor(t, users[who])}`;

describe('catalog routes with bcc.items.view / bcc.item.view', () => {
  it.each(['items', 'item'] as const)(
    'when a %s-view user (no bcc.carts.use) browses a store of their outlet, then store, products, one product and sizes answer 200',
    async (who) => {
      const auth = as(who);
      expect((await request(t.app).get(`/api/v1/stores/${S.central}`).set('Authorization', auth)).status).toBe(200);
      const page = await request(t.app).get(`/api/v1/stores/${S.central}/products?search=vodka`).set('Authorization', auth);
      expect(page.status).toBe(200);
      const body = productPageSchema.parse(page.body);
      expect(body.items.length).toBeGreaterThan(0);
      const code = body.items[0].code;
      expect((await request(t.app).get(`/api/v1/stores/${S.central}/products/${code}`).set('Authorization', auth)).status).toBe(200);
      expect((await request(t.app).get(`/api/v1/stores/${S.central}/bottle-sizes`).set('Authorization', auth)).status).toBe(200);
    },
  );

  it('when the viewing user asks for a store outside their outlets, then still 404', async () => {
    const res = await request(t.app).get(`/api/v1/stores/${S.davenport}/products`).set('Authorization', as('items'));
    expect(res.status).toBe(404);
    expect(problem(res).code).toBe('not_found');
  });

  it('when a user with neither permission browses, then 403 forbidden', async () => {
    const res = await request(t.app).get(`/api/v1/stores/${S.central}/products`).set('Authorization', as('none'));
    expect(res.status).toBe(403);
    expect(problem(res).code).toBe('forbidden');
  });

  it('when the viewing user tries to open or fill a cart, then 403 and no cart row is written', async () => {
    const open = await request(t.app)
      .get(`/api/v1/carts/current?outletId=${fx.outlets.dsm}&storeId=${S.central}`)
      .set('Authorization', as('items'));
    expect(open.status).toBe(403);
    expect(problem(open).code).toBe('forbidden');
    expect(await t.db('carts').where({ user_id: users.items.id }).first()).toBeUndefined();
  });
});
