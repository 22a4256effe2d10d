import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { bottleSizeListSchema, productPageSchema, type Product } from '@portal/contracts';
import { CLEAR_FILTERS_EVENT, SHOP_STATE_KEY, useSelection } from '@/lib/selection';
import { FakeApi, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { ShopPage, SHOP_TEXTS } from './shop-page';
import { NO_CART_PERMISSION_TITLE, type ProductHandlers } from './product-actions';

jest.mock('@/lib/selection', () => ({ ...jest.requireActual('@/lib/selection'), useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const store = { id: 2190, name: 'Central City Liquor', warehouseCode: 'S2190', city: 'Des Moines', state: 'IA' };
const product = (code: string, name: string, extra: Partial<Product> = {}): Product => ({
  code,
  name,
  category: 'AMERICAN VODKAS',
  price: '23.87',
  bottleSizeId: 3,
  bottleSize: '750 ml',
  volumeMl: 750,
  bottlesPerCase: 12,
  stock: 5,
  quantityRule: { min: 1, max: null, increment: 1 },
  ...extra,
});
const catalog = Array.from({ length: 64 }, (_, i) => product(String(10000 + i), i % 2 ? `TITOS VODKA ${i}` : `BOMBAY GIN ${i}`));

let api: FakeApi;
function serve() {
  api = new FakeApi()
    .on(
      'get',
      '/stores/{storeId}/bottle-sizes',
      reply(bottleSizeListSchema, {
        items: [
          { id: 3, name: '750 ml', volumeMl: 750 },
          { id: 5, name: '1.75 L', volumeMl: 1750 },
        ],
      }),
    )
    .on('get', '/stores/{storeId}/products', (call) => {
      const u = new URL(call.url, 'http://x');
      const search = (u.searchParams.get('search') ?? '').toLowerCase();
      const size = u.searchParams.get('size');
      const page = Number(u.searchParams.get('page'));
      const pageSize = Number(u.searchParams.get('pageSize'));
      const hits = catalog.filter(
        (p) => (!search || p.name.toLowerCase().includes(search) || p.code === search) && (!size || String(p.bottleSizeId) === size),
      );
      return reply(productPageSchema, { items: hits.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: hits.length });
    });
}
/** Leaves the welcome state (issue 9 §9) for the unfiltered list. */
const browse = async () => fireEvent.click(await screen.findByRole('button', { name: /Browse all products/ }));
const productCalls = () => api.urls('get').filter((u) => u.includes('/products'));

function renderShop(handlers: Partial<ProductHandlers> = {}) {
  const h: ProductHandlers = { canUseCart: true, isBusy: () => false, onAdd: jest.fn(), onPricing: jest.fn(), ...handlers };
  renderRoute(<ShopPage handlers={h} cartSummary={<a href="/cart">cart</a>} />, { api });
  return h;
}

beforeEach(() => {
  localStorage.clear();
  (useSelection as jest.Mock).mockReturnValue({ store, loading: false });
  window.scrollTo = jest.fn();
  serve();
});

describe('shop page (spec 001 §2)', () => {
  it('when no store is selected, then it says No store selected and how to pick one', () => {
    (useSelection as jest.Mock).mockReturnValue({ store: null, loading: false });
    renderShop();
    expect(screen.getByText(SHOP_TEXTS.noStore)).toBeInTheDocument();
    expect(screen.getByText('Please select an outlet from your profile menu to start shopping.')).toBeInTheDocument();
  });

  it("when the outlets call fails, then the spec's 'Failed to fetch user outlets: {message}' shows, not No store selected", () => {
    const outletsError = Object.assign(new Error('Network Error'), { status: 0 });
    (useSelection as jest.Mock).mockReturnValue({
      store: null,
      loading: false,
      outletsError,
      problem: 'Failed to fetch user outlets: Network Error',
    });
    renderShop();
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch user outlets: Network Error');
    expect(screen.queryByText(SHOP_TEXTS.noStore)).not.toBeInTheDocument();
  });

  it('when nothing is searched, then the welcome shows instead of the catalogue (issue 9 §9); Browse all products lists the first page; the header names the store', async () => {
    renderShop();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Shop | Central City Liquor');
    expect(await screen.findByText('Ready to start ordering?')).toBeInTheDocument();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    await browse();
    expect(screen.queryByText('Ready to start ordering?')).not.toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(30);
    expect(screen.getByText('Showing 1-30 of 64 items')).toBeInTheDocument();
    expect(productCalls()[0]).toBe('/stores/2190/products?page=1&pageSize=30');
    expect(screen.getByPlaceholderText('Search by name or item code...')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Clear All/ })).not.toBeInTheDocument();
  });

  it('when the first page has not answered yet, then the welcome already shows, and its count fills in when it does (issue 26)', async () => {
    let answer: (a: ReturnType<typeof reply>) => void = () => undefined;
    api.on('get', '/stores/{storeId}/products', () => new Promise((ok) => (answer = ok)));
    renderShop();
    expect(await screen.findByText('Ready to start ordering?')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Browse all products/ })).not.toHaveTextContent('64');
    await waitFor(() => expect(productCalls()).toHaveLength(1));
    act(() => answer(reply(productPageSchema, { items: catalog.slice(0, 30), page: 1, pageSize: 30, total: 64 })));
    expect(await screen.findByRole('button', { name: 'Browse all products (64)' })).toBeInTheDocument();
    expect(screen.getByText(/among this store's 64 products/)).toBeInTheDocument();
  });

  it('when a search is typed, then it runs only on Enter, shows the list without the welcome and offers Clear All', async () => {
    renderShop();
    await screen.findByText('Ready to start ordering?');
    const box = screen.getByRole('searchbox', { name: 'Search products' });
    fireEvent.change(box, { target: { value: 'vodka' } });
    expect(productCalls()).toHaveLength(1);
    fireEvent.submit(box.closest('form')!);
    await waitFor(() => expect(productCalls().at(-1)).toBe('/stores/2190/products?search=vodka&page=1&pageSize=30'));
    expect(await screen.findByText('Showing 1-30 of 32 items')).toBeInTheDocument();
    expect(screen.queryByText('Ready to start ordering?')).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(SHOP_STATE_KEY)!)).toMatchObject({ search: 'vodka', page: 1 });
    fireEvent.click(screen.getByRole('button', { name: /Clear All/ }));
    expect(await screen.findByText('Ready to start ordering?')).toBeInTheDocument();
    expect(box).toHaveValue('');
  });

  it('when a search finds nothing, then No products found and the two hints show', async () => {
    renderShop();
    await screen.findByText('Ready to start ordering?');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'zzzz' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No products found')).toBeInTheDocument();
    expect(screen.getByText(/No products found matching your criteria\./)).toBeInTheDocument();
    expect(screen.getByText(/Try adjusting your search criteria or size filter\./)).toBeInTheDocument();
  });

  it('when a page is chosen, then it loads that page and scrolls to the top; a new size returns to page 1', async () => {
    renderShop();
    await browse();
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('Showing 31-60 of 64 items')).toBeInTheDocument();
    expect(window.scrollTo).toHaveBeenCalled();
    const size = screen.getByRole('combobox', { name: 'Bottle size' });
    await waitFor(() => expect(within(size).getByRole('option', { name: '1.75 L' })).toBeInTheDocument());
    expect(within(size).getByRole('option', { name: 'All Sizes' })).toBeInTheDocument();
    fireEvent.change(size, { target: { value: '5' } });
    await waitFor(() => expect(productCalls().at(-1)).toBe('/stores/2190/products?size=5&page=1&pageSize=30'));
    expect(await screen.findByText('No products found')).toBeInTheDocument();
  });

  it('when the user may not use the cart, then Add to Cart is disabled with the spec title; Pricing still works', async () => {
    const h = renderShop({ canUseCart: false });
    await browse();
    const card = screen.getAllByRole('article')[0];
    const add = within(card).getByRole('button', { name: /Add to Cart/ });
    expect(add).toBeDisabled();
    expect(add).toHaveAttribute('title', NO_CART_PERMISSION_TITLE);
    fireEvent.click(within(card).getByRole('button', { name: /Pricing/ }));
    expect(h.onPricing).toHaveBeenCalledWith(catalog[0]);
  });

  it('when an item is being added, then its button is busy and the others stay usable; cart quantities show', async () => {
    const h = renderShop({ isBusy: (code) => code === '10001', inCart: (code) => (code === '10000' ? 2 : 0) });
    await browse();
    const [first, second] = screen.getAllByRole('article');
    expect(within(first).getByRole('button', { name: /Add to Cart/ })).toBeEnabled();
    expect(within(second).getByRole('button', { name: /Adding\.\.\./ })).toBeDisabled();
    fireEvent.click(within(first).getByRole('button', { name: /Add to Cart/ }));
    expect(h.onAdd).toHaveBeenCalledWith(catalog[0]);
    expect(within(first).getByText('In cart: 2')).toBeInTheDocument();
    expect(within(second).queryByText(/In cart/)).not.toBeInTheDocument();
  });

  it('when a saved view exists, then it is restored; the clear-filters event resets it', async () => {
    localStorage.setItem(SHOP_STATE_KEY, JSON.stringify({ search: 'gin', size: null, page: 2, view: 'list' }));
    renderShop();
    await waitFor(() => expect(productCalls()[0]).toBe('/stores/2190/products?search=gin&page=2&pageSize=30'));
    expect(screen.getByRole('searchbox')).toHaveValue('gin');
    expect(screen.getByRole('button', { name: 'List view' })).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('Showing 31-32 of 32 items')).toBeInTheDocument();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.getAllByRole('listitem').length).toBeGreaterThan(0);
    act(() => {
      window.dispatchEvent(new Event(CLEAR_FILTERS_EVENT));
    });
    expect(await screen.findByText('Ready to start ordering?')).toBeInTheDocument();
    expect(screen.getByRole('searchbox')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true');
    expect(JSON.parse(localStorage.getItem(SHOP_STATE_KEY)!)).toEqual({ search: '', size: null, page: 1, view: 'grid' });
  });

  it('when the catalog fails to load, then an error with Try again shows', async () => {
    api.on('get', /.*/, { status: 500, body: {} }); // not a problem body: the client sees code 'unknown'
    renderShop();
    expect(await screen.findByText(SHOP_TEXTS.loadError)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
