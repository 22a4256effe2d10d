import { waitFor } from '@testing-library/react';
import { bottleSizeListSchema, cartSchema, meBootSchema, productPageSchema, type MeBoot } from '@portal/contracts';
import { currentCartPath } from '@/features/cart/api/cart-requests';
import { attentionKey } from '@/features/orders/api/attention';
import { ordersKey } from '@/features/orders/api/get-orders';
import { preloadApi } from '@/lib/api';
import { SHOP_STATE_KEY } from '@/lib/selection';
import { BOOT_JWT, installBootApi, runBootScript, uninstallBootApi } from '@/test/boot-script';
import { cartFixture } from '@/test/cart-fixture';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { meFixture } from '@/test/me-fixture';
import { productsPath } from '@/features/shop/api/get-products';
import { readShopView } from '@/features/shop/hooks/use-shop-view';

const boot: MeBoot = {
  me: meFixture({ permissions: ['bcc.carts.use'] }),
  outlets: { items: [] },
  selection: { outletId: 7, storeId: 2190 },
  stores: { items: [] },
  orderFeedSeq: 0,
};
let api: FakeApi;
beforeEach(() => {
  api = installBootApi();
});
afterEach(() => {
  uninstallBootApi(api);
  localStorage.removeItem(SHOP_STATE_KEY);
});

/** Issue 26: on the shop, index.html's boot script also asks for the shop's first data, by the shop's own paths. */
describe('index.html’s boot script on the shop', () => {
  const sizes = { items: [{ id: 3, name: '750 mL', volumeMl: 750 }] };
  const page = { items: [], page: 2, pageSize: 30, total: 0 };
  const cart = cartFixture();
  const shopBoot = (permissions: string[]): MeBoot => ({ ...boot, me: meFixture({ permissions }) });
  const answerShop = () =>
    api
      .on('get', '/stores/{storeId}/products', reply(productPageSchema, page))
      .on('get', '/stores/{storeId}/bottle-sizes', reply(bottleSizeListSchema, sizes))
      .on('get', '/carts/current', reply(cartSchema, cart));

  it('when the store is known, then the saved view’s products, the sizes and the cart are asked for with the token, by the paths the shop asks', async () => {
    window.history.replaceState(null, '', '/shop');
    localStorage.setItem(SHOP_STATE_KEY, JSON.stringify({ search: '  Old Tom gin ', size: 3, page: 2, view: 'list' }));
    api.on('get', '/me/boot', reply(meBootSchema, shopBoot(['bcc.carts.use'])));
    answerShop();
    const { data } = await runBootScript();
    const products = productsPath(2190, readShopView());
    expect(products).toBe('/stores/2190/products?search=Old+Tom+gin&size=3&page=2&pageSize=30');
    expect(api.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'post /auth/refresh',
      'get /me/boot',
      `get ${products}`,
      'get /stores/2190/bottle-sizes',
      `get ${currentCartPath(7, 2190)}`,
    ]);
    for (const call of api.calls.slice(1)) expect(api.headerOf(call, 'Authorization')).toBe(`Bearer ${BOOT_JWT}`);
    expect(data[products]).toEqual(page);
    expect(data['/stores/2190/bottle-sizes']).toEqual(sizes);
    expect(data[currentCartPath(7, 2190)]).toEqual(JSON.parse(JSON.stringify(cart)));
  });

  it('when nothing is saved (or the saved view is malformed) on /, then the first page of every size is asked for, and no cart without the cart permission', async () => {
    for (const saved of [null, 'not json', '5', JSON.stringify({ search: 7, size: -1, page: 1.5 })]) {
      window.history.replaceState(null, '', '/');
      if (saved === null) localStorage.removeItem(SHOP_STATE_KEY);
      else localStorage.setItem(SHOP_STATE_KEY, saved);
      api.calls.length = 0;
      api.on('get', '/me/boot', reply(meBootSchema, shopBoot(['bcc.orders.outlet.manage'])));
      answerShop();
      await runBootScript();
      expect(productsPath(2190, readShopView())).toBe('/stores/2190/products?page=1&pageSize=30');
      expect(api.urls('get')).toEqual(['/me/boot', '/stores/2190/products?page=1&pageSize=30', '/stores/2190/bottle-sizes']);
    }
  });

  it('when the products are refused, then that part is null (the shop asks itself and shows the refusal)', async () => {
    window.history.replaceState(null, '', '/shop');
    api.on('get', '/me/boot', reply(meBootSchema, shopBoot([])));
    api.on('get', '/stores/{storeId}/products', problem(403, 'forbidden'));
    api.on('get', '/stores/{storeId}/bottle-sizes', reply(bottleSizeListSchema, sizes));
    const { data } = await runBootScript();
    expect(data['/stores/2190/products?page=1&pageSize=30']).toBeNull();
  });

  it.each([
    ['the selection has no store', { ...shopBoot(['bcc.carts.use']), selection: { outletId: 7, storeId: null } }],
    ['the outlet’s stores are refused', { ...shopBoot(['bcc.carts.use']), stores: null }],
  ])('when %s, then nothing of the shop is asked for', async (_case, answer) => {
    window.history.replaceState(null, '', '/shop');
    api.on('get', '/me/boot', reply(meBootSchema, answer));
    answerShop();
    await runBootScript();
    expect(api.urls('get')).toEqual(['/me/boot']);
  });

  it('when the shop preloads what the boot script asked for, then it takes that answer and asks nothing again', async () => {
    window.history.replaceState(null, '', '/shop');
    api.on('get', '/me/boot', reply(meBootSchema, shopBoot([])));
    answerShop();
    await runBootScript();
    const asked = api.calls.length;
    preloadApi('/stores/2190/bottle-sizes', bottleSizeListSchema);
    await waitFor(() => expect(window.__portalBoot?.data['/stores/2190/bottle-sizes']).toBeUndefined());
    expect(api.calls).toHaveLength(asked);
  });
});

/** Issue 26: on My Orders and Store Orders, the boot script asks for what their page-load preloads ask for. */
describe('index.html’s boot script on the order screens', () => {
  it('when /order-history loads with a store, then the user’s orders of that store are asked for, by My Orders’ own path', async () => {
    window.history.replaceState(null, '', '/order-history');
    api.on('get', '/me/boot', reply(meBootSchema, boot));
    const { data } = await runBootScript();
    expect(api.urls('get')).toEqual(['/me/boot', ordersKey({ storeId: 2190, mine: true })]);
    expect(ordersKey({ storeId: 2190, mine: true })).toBe('/orders?storeId=2190&mine=true');
    expect(data).toHaveProperty([ordersKey({ storeId: 2190, mine: true })], null); // the fake has no orders: 404 → null
  });

  it('when /orders loads with a store, then its orders, card payment readiness, orders needing attention and tomorrow’s deliveries are asked for', async () => {
    window.history.replaceState(null, '', '/orders');
    api.on('get', '/me/boot', reply(meBootSchema, boot));
    await runBootScript();
    expect(api.urls('get')).toEqual([
      '/me/boot',
      ordersKey({ storeId: 2190 }),
      '/stores/2190/payment-readiness',
      attentionKey(2190),
      '/stores/2190/deliveries',
    ]);
    for (const call of api.calls.slice(1)) expect(api.headerOf(call, 'Authorization')).toBe(`Bearer ${BOOT_JWT}`);
  });

  it.each(['/profile', '/cart', '/orders/7', '/admin?tab=users'])('when %s loads, then no screen data is asked for', async (path) => {
    window.history.replaceState(null, '', path);
    api.on('get', '/me/boot', reply(meBootSchema, boot));
    await runBootScript();
    expect(api.urls('get')).toEqual(['/me/boot']);
  });
});

/** Issue 26: on the admin dashboard's Data Synch tab, the boot script asks for what the tab fetches first. */
describe('index.html’s boot script on the admin dashboard', () => {
  const adminBoot = (permissions: string[]): MeBoot => ({ ...boot, me: meFixture({ permissions }), selection: null, stores: null });

  it.each(['/admin', '/admin?tab=data-sync'])(
    'when %s loads for a user who may see Data Synch, then its summary and runs are asked for, with no store needed',
    async (path) => {
      window.history.replaceState(null, '', path);
      api.on('get', '/me/boot', reply(meBootSchema, adminBoot(['bcc.admin.allow_data_sync'])));
      await runBootScript();
      expect(api.urls('get')).toEqual(['/me/boot', '/admin/imports/summary', '/admin/imports']);
      for (const call of api.calls.slice(1)) expect(api.headerOf(call, 'Authorization')).toBe(`Bearer ${BOOT_JWT}`);
    },
  );

  it('when the user may not see Data Synch, then nothing is asked for', async () => {
    window.history.replaceState(null, '', '/admin');
    api.on('get', '/me/boot', reply(meBootSchema, adminBoot(['bcc.admin.allow_user_admin'])));
    await runBootScript();
    expect(api.urls('get')).toEqual(['/me/boot']);
  });
});
