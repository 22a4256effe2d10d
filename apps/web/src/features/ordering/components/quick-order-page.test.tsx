import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { cartSchema, productPageSchema } from '@portal/contracts';
import { useSelection } from '@/lib/selection';
import { notify } from '@/components/ui/toaster';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { bulkResultsSchema } from '../api/schemas';
import { QuickOrderPage } from './quick-order-page';

jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const cart = {
  id: 7,
  outletId: 1,
  storeId: 2190,
  outlet: { name: 'Court Avenue Taproom', code: 'DEMO-DSM-01' },
  store: { name: 'Central City Liquor', city: 'Des Moines', state: 'IA', deliveryEnabled: true, deliveryCharge: '15.00' },
  items: [],
  fulfillment: { type: 'Pickup' as const, date: null, deliveryCharge: '0.00' },
  itemCount: 0,
  totalQuantity: 0,
  subtotal: '0.00',
  total: '0.00',
};
const titos = {
  code: '35918',
  name: 'TITOS HANDMADE VODKA',
  category: 'AMERICAN VODKAS',
  price: '23.87',
  bottleSizeId: 3,
  bottleSize: '750 ml',
  volumeMl: 750,
  bottlesPerCase: 12,
  stock: 40,
  quantityRule: { min: 1, max: null, increment: 1 },
};

let api: FakeApi;
beforeEach(() => {
  (useSelection as jest.Mock).mockReturnValue({
    outlet: { outletId: 1, outletName: 'Court Avenue Taproom' },
    store: { id: 2190, name: 'Central City Liquor' },
    loading: false,
  });
  api = new FakeApi()
    .on('get', '/carts/current', reply(cartSchema, cart))
    .on('get', '/stores/{storeId}/products', reply(productPageSchema, { items: [titos], page: 1, pageSize: 8, total: 1 }))
    .on('post', '/carts/{cartId}/lines/bulk', (call) => {
      const lines = (call.body as { lines: { itemCode: string; quantity: number }[] }).lines;
      const results = lines.map((l, i) =>
        l.itemCode === 'NOPE'
          ? { row: i + 1, itemCode: l.itemCode, ok: false, code: 'unknown_code' as const, message: 'Unknown item code' }
          : l.itemCode === '34422'
            ? {
                row: i + 1,
                itemCode: l.itemCode,
                ok: false,
                code: 'quantity_rule' as const,
                message: 'Sold in steps of 6',
                nearestValid: 6,
              }
            : { row: i + 1, itemCode: l.itemCode, ok: true, quantity: l.quantity },
      );
      return reply(bulkResultsSchema, { results, addedCount: results.filter((r) => r.ok).length, cart });
    });
});
afterEach(() => (notify as jest.Mock).mockClear());

const render = () => renderRoute(<QuickOrderPage />, { url: '/quick-order', api });
const lines = () => within(screen.getByRole('list', { name: 'Quick order lines' })).getAllByRole('listitem');

describe('Quick order (issue 27 §2)', () => {
  it('when a list with a header, a bad code, a bad quantity and a case-rule line is pasted, then each line gets its result and nothing is dropped', async () => {
    const { user } = render();
    fireEvent.change(screen.getByLabelText('Item codes and quantities'), {
      target: { value: 'Item Number,Quantity\n35918,12\nNOPE\t3\n34422 4\n11788 lots' },
    });
    await user.click(screen.getByRole('button', { name: /Add pasted lines/ }));
    expect(screen.getByText('4 lines from the pasted text added to the grid.')).toBeInTheDocument();
    expect(lines()).toHaveLength(5); // 4 pasted + the blank line
    expect(within(lines()[3]).getByText('"lots" is not a quantity')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add all valid lines (3)' }));
    await waitFor(() => expect(within(lines()[0]).getByText('Added to cart')).toBeInTheDocument());
    const sent = api.calls.find((c) => c.method === 'post')!;
    expect(sent.url).toBe('/carts/7/lines/bulk');
    expect(sent.body).toEqual({
      lines: [
        { itemCode: '35918', quantity: 12 },
        { itemCode: 'NOPE', quantity: 3 },
        { itemCode: '34422', quantity: 4 },
      ],
    });
    expect(within(lines()[1]).getByText('Unknown item code')).toBeInTheDocument();
    expect(within(lines()[2]).getByText('Sold in steps of 6')).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ title: '1 line added to the cart', description: '2 lines need attention.' }),
    );

    await user.click(within(lines()[2]).getByRole('button', { name: 'Use 6' }));
    expect(screen.getByLabelText('Quantity, line 3')).toHaveValue('6');
    expect(screen.getByRole('button', { name: 'Add all valid lines (2)' })).toBeEnabled();
  });

  it('when typing a name, then suggestions come from the store, Enter picks one and Enter in the quantity moves to the next line', async () => {
    const { user } = render();
    const code = screen.getByLabelText('Item code, line 1');
    await user.type(code, 'tito');
    expect(await screen.findByRole('option', { name: /TITOS HANDMADE VODKA/ })).toBeInTheDocument();
    expect(api.urls('get').some((u) => u.startsWith('/stores/2190/products?search=tito'))).toBe(true);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(code).toHaveValue('35918');
    expect(screen.getByLabelText('Quantity, line 1')).toHaveFocus();
    await user.keyboard('12{Enter}');
    expect(screen.getByLabelText('Item code, line 2')).toHaveFocus();
    expect(screen.getByText('TITOS HANDMADE VODKA')).toBeInTheDocument();
  });

  it('when a CSV file is uploaded, then its lines join the grid', async () => {
    const { user } = render();
    const file = new File(['Item Number,Quantity\n35918,6\n34422,12\n'], 'order.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('Upload CSV'), file);
    expect(await screen.findByText('2 lines from order.csv added to the grid.')).toBeInTheDocument();
    expect(screen.getByLabelText('Item code, line 2')).toHaveValue('34422');
  });
});
