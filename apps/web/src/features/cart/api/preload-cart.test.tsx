import { act, screen, waitFor } from '@testing-library/react';
import { cartSchema, meSchema } from '@portal/contracts';
import { cartFixture } from '@/test/cart-fixture';
import { FakeApi, reply } from '@/test/fake-api';
import { meFixture } from '@/test/me-fixture';
import { renderSession, sessionNow } from '@/test/render-session';
import { setAccessToken } from '@/lib/api';
import { preloadCurrentCart } from './use-cart';

const cart = cartFixture();
const meWith = (id: string, permissions: string[]) =>
  meFixture({ user: { id, email: `${id}@example.com`, isActive: true, lastLoginAt: null }, permissions });
const cartUrl = '/carts/current?outletId=1&storeId=2190';

let fake: FakeApi;
beforeEach(() => {
  document.cookie = 'portal_signed_in=1; path=/';
  setAccessToken(null);
  fake = new FakeApi()
    .on('post', '/auth/refresh', { status: 200, body: { access_token: 'tok-1' } })
    .on('get', '/carts/current', reply(cartSchema, cart))
    .on('post', '/auth/logout', { status: 204 })
    .install();
});
// Signing out forgets the announced user, so the next test's session announces its own.
afterEach(async () => {
  await act(() => sessionNow().signOut());
  fake.uninstall();
  document.cookie = 'portal_signed_in=; max-age=0; path=/';
});

/** Issue 26: the shop asks for the cart alongside its first page of products on a page load, not after its first render. */
describe('preloadCurrentCart', () => {
  it('when /me answers with the cart permission, then the saved outlet and store’s cart is asked for, with no cart on screen yet', async () => {
    fake.on('get', '/me', reply(meSchema, meWith('u1', ['bcc.carts.use'])));
    preloadCurrentCart(1, 2190);
    expect(fake.urls('get')).not.toContain(cartUrl);
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    await waitFor(() => expect(fake.urls('get')).toContain(cartUrl));
    expect(fake.urls('get').indexOf('/me')).toBeLessThan(fake.urls('get').indexOf(cartUrl));
  });

  it('when the user may not use a cart, then no cart is asked for', async () => {
    fake.on('get', '/me', reply(meSchema, meWith('u2', ['bcc.orders.store.manage'])));
    preloadCurrentCart(1, 2190);
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    await new Promise((done) => setTimeout(done, 20));
    expect(fake.urls('get')).not.toContain(cartUrl);
  });
});
