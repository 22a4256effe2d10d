import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';
import type { Product } from '@portal/contracts';
import { api } from '@/lib/api';
import { useSelection } from '@/lib/selection';
import { PricingCalculatorPage } from './pricing-calculator-page';

jest.mock('@/lib/selection', () => ({ useSelection: jest.fn() }));

const p = (code: string, name: string, price: string, volumeMl: number | null = 750): Product => ({
  code, name, category: 'VODKA', price, bottleSizeId: 3, bottleSize: volumeMl ? `${volumeMl} ml` : 'Unknown Size', volumeMl, bottlesPerCase: 12, stock: 1,
});
const catalog = [p('35918', 'TITOS HANDMADE VODKA', '30.00'), p('34422', 'GREY GOOSE', '45.00', 1000)];

let search = '';
function Where() { search = useLocation().search; return null; }
function show(url = '/pricing-calculator') {
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={[url]}><Routes><Route path="/pricing-calculator" element={<><Where /><PricingCalculatorPage /></>} /></Routes></MemoryRouter>
    </SWRConfig>,
  );
}

beforeEach(() => {
  (useSelection as jest.Mock).mockReturnValue({ store: { id: 2190, name: 'Central City Liquor' }, loading: false });
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    const u = new URL(url, 'http://x');
    const one = /\/products\/(.+)$/.exec(u.pathname);
    if (one) {
      const found = catalog.find((x) => x.code === decodeURIComponent(one[1]));
      if (!found) throw Object.assign(new Error('nf'), { response: { status: 404, data: {} } });
      return { data: found };
    }
    const q = (u.searchParams.get('search') ?? '').toLowerCase();
    const items = catalog.filter((x) => x.name.toLowerCase().includes(q) || x.code === q);
    return { data: { items, page: 1, pageSize: 10, total: items.length } };
  });
});
afterEach(() => jest.restoreAllMocks());

describe('/pricing-calculator (spec 000 §2)', () => {
  it('when opened with ?code=, then the code is pre-searched and its product selected', async () => {
    show('/pricing-calculator?code=34422');
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('34422');
    expect(await screen.findByText('Shots per bottle')).toBeInTheDocument();
    expect(screen.getByText('Shots per bottle').nextSibling).toHaveTextContent('22'); // 1000 ml
    expect(api.get).toHaveBeenCalledWith('/stores/2190/products/34422');
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
