import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { productPageSchema } from '@portal/contracts';
import { useSelection } from '@/lib/selection';
import { notify } from '@/components/ui/toaster';
import { cartFixture } from '@/test/cart-fixture';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { orderGuideListSchema, orderGuideSchema, toCartResultSchema } from '../api/schemas';
import { OrderGuidesPage } from './order-guides-page';

jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const anyQty = { min: 1, max: null, increment: 1 };
const stamp = '2026-11-20T10:00:00.000Z';
const guide = {
  id: 5,
  guideId: 5,
  name: 'Friday restock',
  storeId: 2190,
  storeName: 'Central City Liquor',
  outletId: 1,
  createdBy: null,
  createdAt: stamp,
  updatedAt: stamp,
  lines: [
    {
      itemCode: '35918',
      parQuantity: 12,
      position: 1,
      name: 'TITOS HANDMADE VODKA',
      carried: true,
      bottlesPerCase: 12,
      quantityRule: { min: 1, max: null, increment: 6 },
      stock: 4,
    },
    {
      itemCode: '34422',
      parQuantity: 6,
      position: 2,
      name: 'GREY GOOSE',
      carried: true,
      bottlesPerCase: 6,
      quantityRule: anyQty,
      stock: 40,
    },
    {
      itemCode: '11788',
      parQuantity: 3,
      position: 3,
      name: 'OLD BOTTLE',
      carried: false,
      bottlesPerCase: 12,
      quantityRule: anyQty,
      stock: null,
    },
  ],
};
const summary = (over: object) => ({
  id: 5,
  guideId: 5,
  outletId: 1,
  storeId: 2190,
  storeName: 'Central City Liquor',
  name: 'Friday restock',
  lineCount: 3,
  updatedAt: stamp,
  ...over,
});
const cart = cartFixture({
  outlet: { name: 'Taproom', code: 'D1' },
  store: { name: 'Central City Liquor', city: null, state: null, deliveryEnabled: false, deliveryCharge: '0.00' },
});
let api: FakeApi;
beforeEach(() => {
  (useSelection as jest.Mock).mockReturnValue({
    outlet: { outletId: 1, outletName: 'Court Avenue Taproom' },
    store: { id: 2190, name: 'Central City Liquor' },
    loading: false,
  });
  api = new FakeApi()
    .on(
      'get',
      '/outlets/{outletId}/order-guides',
      reply(orderGuideListSchema, { items: [summary({}), summary({ id: 6, guideId: 6, storeId: 999, name: 'Other store' })] }),
    )
    .on('get', '/order-guides/{guideId}', reply(orderGuideSchema, guide))
    .on('get', '/stores/{storeId}/products', (call) =>
      reply(productPageSchema, {
        items: call.url.includes('search=43337')
          ? [
              {
                code: '43337',
                name: 'CAPTAIN MORGAN',
                category: 'SPICED RUM',
                price: '15.00',
                bottleSizeId: 3,
                bottleSize: '750 ml',
                volumeMl: 750,
                bottlesPerCase: 12,
                stock: 9,
                quantityRule: anyQty,
              },
            ]
          : [],
        page: 1,
        pageSize: 5,
        total: 0,
      }),
    )
    .on('patch', '/order-guides/{guideId}', { status: 200, body: guide })
    .on(
      'post',
      '/order-guides/{guideId}/to-cart',
      reply(toCartResultSchema, {
        cartId: 7,
        cart,
        added: [{ itemCode: '35918', name: 'TITOS HANDMADE VODKA', needed: 7, quantity: 12 }],
        skipped: [
          { itemCode: '11788', name: 'OLD BOTTLE', reason: 'not_carried' },
          { itemCode: '34422', name: 'GREY GOOSE', reason: 'nothing_needed' },
        ],
      }),
    );
});
afterEach(() => (notify as jest.Mock).mockClear());

const render = () => renderRoute(<OrderGuidesPage />, { url: '/order-guides', api });
/** The editable lines table (the print-only copy is left out). */
const table = () => within(screen.getByRole('table', { name: 'Guide lines in order' }));
const opened = () => screen.findByRole('table', { name: 'Guide lines in order' });
const itemNames = () =>
  table()
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[1].querySelector('p')?.textContent);

describe('Order guides (issue 27 §1)', () => {
  it("when the outlet has guides, then only the current store's are listed and the first opens with pack, rule and low stock", async () => {
    render();
    expect(await screen.findByRole('button', { name: /Friday restock/ })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('button', { name: /Other store/ })).not.toBeInTheDocument();
    await opened();
    expect(table().getByText('TITOS HANDMADE VODKA')).toBeInTheDocument();
    expect(table().getAllByText(/12 per case/)).toHaveLength(2);
    expect(table().getByText(/In steps of 6/)).toBeInTheDocument();
    expect(table().getByText('Only 4 left at this store')).toBeInTheDocument();
    expect(table().getByText('No longer carried at this store')).toBeInTheDocument();
  });

  it('when a line is moved down and up by keyboard, then the order changes, is announced and saved in that order', async () => {
    render();
    await opened();
    const down = screen.getByRole('button', { name: 'Move TITOS HANDMADE VODKA down' });
    down.focus();
    fireEvent.click(down);
    expect(itemNames()).toEqual(['GREY GOOSE', 'TITOS HANDMADE VODKA', 'OLD BOTTLE']);
    expect(screen.getByText('TITOS HANDMADE VODKA moved to position 2 of 3.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Move OLD BOTTLE up' }));
    expect(itemNames()).toEqual(['GREY GOOSE', 'OLD BOTTLE', 'TITOS HANDMADE VODKA']);
    expect(screen.getByRole('button', { name: 'Move GREY GOOSE up' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'patch')).toBe(true));
    const body = api.calls.find((c) => c.method === 'patch')!.body as { lines: { itemCode: string }[] };
    expect(body.lines.map((l) => l.itemCode)).toEqual(['34422', '11788', '35918']);
  });

  it('when the cart is filled with shelf counts (one blank), then the counts are sent and added and skipped lines are listed', async () => {
    const { user } = render();
    await opened();
    await user.click(screen.getByRole('button', { name: 'Fill cart from guide' }));
    await user.type(screen.getByLabelText('On shelf: TITOS HANDMADE VODKA'), '5');
    await user.type(screen.getByLabelText('On shelf: GREY GOOSE'), '6');
    // par 12, 5 on the shelf, steps of 6 → 12; the blank line counts as none.
    expect(within(table().getAllByRole('row')[1]).getAllByRole('cell')[4]).toHaveTextContent('12');
    await user.click(screen.getByRole('button', { name: 'Add to cart' }));
    const result = await screen.findByRole('region', { name: 'Fill result' });
    expect(api.calls.find((c) => c.method === 'post')!.body).toEqual({
      onHand: [
        { itemCode: '35918', onHand: 5 },
        { itemCode: '34422', onHand: 6 },
      ],
    });
    expect(within(result).getByText(/Added to the cart \(1\)/)).toBeInTheDocument();
    expect(within(result).getByText('No longer carried at this store')).toBeInTheDocument();
    expect(within(result).getByText('Shelf already at par')).toBeInTheDocument();
  });

  it('when a code is typed and added, then the line shows its product; a code the store does not sell is refused and not added', async () => {
    const { user } = render();
    await opened();
    await user.type(screen.getByLabelText('Add item (code or name)'), 'NOPE');
    await user.type(screen.getByLabelText('Par (bottles)'), '6{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('No product with the code NOPE at this store');
    expect(table().getAllByRole('row')).toHaveLength(4);
    await user.clear(screen.getByLabelText('Add item (code or name)'));
    await user.type(screen.getByLabelText('Add item (code or name)'), '43337');
    await user.click(screen.getByRole('button', { name: 'Add line' }));
    expect(await table().findByText('CAPTAIN MORGAN')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeEnabled();
  });
});
