import { screen, waitFor } from '@testing-library/react';
import { cartSchema } from '@portal/contracts';
import { useSelection } from '@/lib/selection';
import { notify } from '@/components/ui/toaster';
import { cartFixture } from '@/test/cart-fixture';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { bulkResultsSchema, suggestedOrderSchema } from '../api/schemas';
import { SuggestedOrderPage } from './suggested-order-page';

jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const cart = cartFixture({
  outlet: { name: 'Taproom', code: 'D1' },
  store: { name: 'Central City Liquor', city: null, state: null, deliveryEnabled: false, deliveryCharge: '0.00' },
});
const facts = { stock: null, bottlesPerCase: 12, quantityRule: { min: 1, max: null, increment: 1 } };
let api: FakeApi;
beforeEach(() => {
  (useSelection as jest.Mock).mockReturnValue({
    outlet: { outletId: 1, outletName: 'Taproom' },
    store: { id: 2190, name: 'Central City Liquor' },
    loading: false,
  });
  api = new FakeApi()
    .on('get', '/outlets/{outletId}/stores/{storeId}/suggested-order', (call) => {
      const weeks = new URL(`http://x${call.url}`).searchParams.get('weeks');
      return reply(suggestedOrderSchema, {
        outletId: 1,
        storeId: 2190,
        weeks: Number(weeks),
        source: 'own_history',
        lines: [
          {
            itemCode: '35918',
            name: 'TITOS HANDMADE VODKA',
            suggested: 6,
            basis: `≈ 6 a week over ${weeks} weeks`,
            weeklyAverage: 6,
            ...facts,
          },
          { itemCode: '34422', name: 'GREY GOOSE', suggested: 2, basis: `≈ 2 a week over ${weeks} weeks`, weeklyAverage: 2, ...facts },
        ],
      });
    })
    .on('get', '/carts/current', reply(cartSchema, cart))
    .on('post', '/carts/{cartId}/lines/bulk', (call) =>
      reply(bulkResultsSchema, {
        results: (call.body as { lines: { itemCode: string; quantity: number }[] }).lines.map((l, i) => ({
          row: i + 1,
          itemCode: l.itemCode,
          ok: true,
          quantity: l.quantity,
        })),
        addedCount: (call.body as { lines: unknown[] }).lines.length,
        cart,
      }),
    );
});

describe('Suggested order (issue 27 §5)', () => {
  it('when opened, then 8 weeks is asked for and each line shows its basis; another choice asks again', async () => {
    const { user } = renderRoute(<SuggestedOrderPage />, { api });
    expect(await screen.findByText('≈ 6 a week over 8 weeks')).toBeInTheDocument();
    expect(api.urls('get')).toContain('/outlets/1/stores/2190/suggested-order?weeks=8');
    await user.selectOptions(screen.getByLabelText('Based on the last'), '12');
    expect(await screen.findByText('≈ 6 a week over 12 weeks')).toBeInTheDocument();
  });

  it('when a quantity is edited and one cleared, then Add to cart sends only the chosen quantities', async () => {
    const { user } = renderRoute(<SuggestedOrderPage />, { api });
    const titos = await screen.findByLabelText('Quantity of TITOS HANDMADE VODKA');
    await user.clear(titos);
    await user.type(titos, '12');
    await user.clear(screen.getByLabelText('Quantity of GREY GOOSE'));
    await user.click(screen.getByRole('button', { name: 'Add to cart (1)' }));
    await waitFor(() => expect(api.urls('post')).toContain('/carts/7/lines/bulk'));
    expect(api.calls.find((c) => c.method === 'post')!.body).toEqual({ lines: [{ itemCode: '35918', quantity: 12 }] });
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: '1 line added to the cart' })));
  });
});
