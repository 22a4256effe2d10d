import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { productPageSchema, productSchema, type Product } from '@portal/contracts';
import { useSelection } from '@/lib/selection';
import { FakeApi, problem, reply } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { PricingCalculatorPage } from './pricing-calculator-page';

jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));

const p = (code: string, name: string, price: string, volumeMl: number | null = 750): Product => ({
  code,
  name,
  category: 'VODKA',
  price,
  bottleSizeId: 3,
  bottleSize: volumeMl ? `${volumeMl} ml` : 'Unknown Size',
  volumeMl,
  bottlesPerCase: 12,
  stock: 1,
  quantityRule: { min: 1, max: null, increment: 1 },
});
const catalog = [p('35918', 'TITOS HANDMADE VODKA', '30.00'), p('34422', 'GREY GOOSE', '45.00', 1000)];

let search = '';
function Where() {
  search = useLocation().search;
  return null;
}
const catalogApi = () =>
  new FakeApi()
    .on('get', '/stores/{storeId}/products', (call) => {
      const q = (new URL(call.url, 'http://x').searchParams.get('search') ?? '').toLowerCase();
      const items = catalog.filter((x) => x.name.toLowerCase().includes(q) || x.code === q);
      return reply(productPageSchema, { items, page: 1, pageSize: 10, total: items.length });
    })
    .on('get', '/stores/{storeId}/products/{code}', (_call, m) => {
      const found = catalog.find((x) => x.code === decodeURIComponent(m[2]));
      return found ? reply(productSchema, found) : problem(404, 'not_found', 'nf');
    });
const show = (url = '/pricing-calculator') =>
  renderRoute(
    <>
      <Where />
      <PricingCalculatorPage />
    </>,
    { url, path: '/pricing-calculator', api: catalogApi() },
  );

beforeEach(() => {
  (useSelection as jest.Mock).mockReturnValue({ store: { id: 2190, name: 'Central City Liquor' }, loading: false });
});

describe('/pricing-calculator (spec 000 §2)', () => {
  it('when opened with ?code=, then the code is pre-searched and its product selected', async () => {
    const { api } = show('/pricing-calculator?code=34422');
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('34422');
    expect(await screen.findByText('Shots per bottle')).toBeInTheDocument();
    expect(screen.getByText('Shots per bottle').nextSibling).toHaveTextContent('22'); // 1000 ml
    expect(api.calls).toContainEqual({ method: 'get', url: '/stores/2190/products/34422', body: undefined });
  });

  it('when a name is typed, then results come after the debounce and choosing one shows its analysis and sets ?code=', async () => {
    show();
    expect(screen.getByPlaceholderText('Search by name or product number...')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'tito' } });
    const hit = await screen.findByRole('button', { name: /TITOS HANDMADE VODKA/ });
    fireEvent.click(hit);
    expect(await screen.findByText('Price per ounce')).toBeInTheDocument();
    expect(screen.getByText('Price per ounce').nextSibling).toHaveTextContent('$1.18');
    await waitFor(() => expect(search).toBe('?code=35918'));
  });

  it('when the code is not in the store, then it says so', async () => {
    show('/pricing-calculator?code=99999');
    expect(await screen.findByText('No product with item code 99999 in this store.')).toBeInTheDocument();
  });

  it('when no store is selected, then it says No store selected', () => {
    (useSelection as jest.Mock).mockReturnValue({ store: null, loading: false });
    show();
    expect(screen.getByText('No store selected')).toBeInTheDocument();
  });
});
