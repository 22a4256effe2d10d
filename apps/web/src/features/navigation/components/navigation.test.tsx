import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { PERMISSIONS, type Me, type MyOutlet, type StoreSummary } from '@portal/contracts';
import * as toaster from '@/components/ui/toaster';
import { useSelection, type SelectionValue } from '@/lib/selection';
import { SIGNED_OUT_EVENT, useSession, type SessionValue } from '@/lib/session';
import { ApiError } from '@/lib/api';
import { renderRoute } from '@/test/render-route';
import { meFixture } from '@/test/me-fixture';
import { MENU_STATE_KEY } from '../utils/menu-state';
import { AppHeader } from './app-header';
import { MENU_SCROLL_STEP } from './scrollable-menu-body';

jest.mock('@/lib/session', () => ({ ...jest.requireActual('@/lib/session'), useSession: jest.fn() }));
jest.mock('@/lib/selection', () => ({ ...jest.requireActual('@/lib/selection'), useSelection: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));
const notify = toaster.notify as jest.Mock;

// jsdom lacks what Radix menus touch.
beforeAll(() => {
  Object.assign(Element.prototype, {
    hasPointerCapture: () => false,
    releasePointerCapture: () => undefined,
    scrollIntoView: () => undefined,
  });
});

const outlet = (id: number, name: string, extra: Partial<MyOutlet> = {}): MyOutlet => ({
  outletId: id,
  outletCode: `CODE-${id}`,
  outletName: name,
  isAdminOutlet: false,
  outletActive: true,
  outletCity: 'AMES',
  outletState: 'IA',
  outletPhone: null,
  outletEmail: null,
  boardName: 'Iowa Alcoholic Beverages Division',
  defaultStoreId: null,
  storeIds: [],
  storeNames: [],
  storeCodes: [],
  ...extra,
});
const store = (id: number, name: string): StoreSummary => ({
  id,
  warehouseId: id,
  name,
  warehouseCode: `W${id}`,
  address: '1 Main St',
  city: 'AMES',
  state: 'IA',
  zipCode: '50010',
  phone: null,
  boardNumber: 1,
  boardName: 'Iowa Alcoholic Beverages Division',
  active: true,
});
const me = (firstName: string | null = 'Blake', fullName: string | null = 'Blake Buyer'): Me =>
  meFixture({ profile: { firstName, fullName } });

function mockSession(over: Partial<SessionValue> = {}, codes: string[] = []) {
  const v: SessionValue = {
    status: 'authenticated',
    me: me(),
    initError: false,
    hasPermission: (c) => codes.includes(c),
    hasAnyPermission: (cs) => cs.some((c) => codes.includes(c)),
    signIn: jest.fn(),
    signOut: jest.fn().mockResolvedValue(undefined),
    reload: jest.fn(),
    ...over,
  };
  (useSession as jest.Mock).mockReturnValue(v);
  return v;
}
function mockSelection(over: Partial<SelectionValue> = {}) {
  const outlets = [outlet(1, 'Court Avenue Taproom'), outlet(2, 'Campustown Bistro')];
  const stores = [store(2190, 'Central City 2'), store(4129, 'Cyclone Liquors')];
  const v: SelectionValue = {
    outlets,
    outletsLoading: false,
    outletsError: undefined,
    stores,
    storesLoading: false,
    storesError: undefined,
    outlet: outlets[0],
    store: stores[0],
    loading: false,
    problem: null,
    selectOutlet: jest.fn().mockResolvedValue(undefined),
    selectStore: jest.fn().mockResolvedValue(undefined),
    ...over,
  };
  (useSelection as jest.Mock).mockReturnValue(v);
  return v;
}

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname}</div>;
}
function renderHeader(path = '/shop') {
  return renderRoute(
    <>
      <AppHeader />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </>,
    { url: path },
  );
}
const openMenu = async (name = 'Blake') => {
  await userEvent.click(screen.getByRole('button', { name }));
  return screen.findByRole('menu');
};

beforeEach(() => {
  notify.mockReset();
  sessionStorage.clear();
});

describe('header (spec 000 §1, §2)', () => {
  it('when signed in on /shop, then the board name links to /shop and the outlet name shows', () => {
    mockSession();
    mockSelection();
    renderHeader('/shop');
    expect(screen.getByRole('link', { name: 'Iowa Alcoholic Beverages Division' })).toHaveAttribute('href', '/shop');
    expect(screen.getByTestId('outlet-display')).toHaveTextContent('Court Avenue Taproom');
    expect(screen.getByTestId('outlet-display')).toHaveAttribute('href', '/shop');
  });

  it.each(['/auth', '/payment'])('when on %s, then the default title and logo show instead of the board', (path) => {
    mockSession();
    mockSelection();
    renderHeader(path);
    expect(screen.getByText('Liquor Ordering Portal')).toBeInTheDocument();
    expect(screen.queryByText('Iowa Alcoholic Beverages Division')).not.toBeInTheDocument();
    expect(screen.queryByTestId('outlet-display')).not.toBeInTheDocument();
  });

  it('when signed out, then the default title shows and there is no profile menu', () => {
    mockSession({ status: 'unauthenticated', me: null });
    mockSelection({ outlets: [], outlet: null, stores: [], store: null });
    renderHeader('/');
    expect(screen.getByText('Liquor Ordering Portal')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Blake|User/ })).not.toBeInTheDocument();
  });

  it.each([
    [
      'an error',
      { outletsError: new ApiError(500, { type: 'x', title: 't', status: 500, code: 'internal_error' }), outlet: null },
      'Error loading outlet',
    ],
    ['loading with no outlet', { outletsLoading: true, loading: true, outlet: null, outlets: [] }, 'Loading outlet...'],
    ['no outlet', { outlet: null, outlets: [] }, 'No outlet assigned'],
    ['an outlet without a name', { outlet: outlet(5, '', { outletCode: 'DSM-9' }) }, 'DSM-9'],
    ['an outlet without name or code', { outlet: outlet(6, '', { outletCode: '' }) }, 'Outlet 6'],
  ])('when the outlet has %s, then the header says the spec text', (_label, over, text) => {
    mockSession();
    mockSelection(over as Partial<SelectionValue>);
    renderHeader('/shop');
    expect(screen.getByTestId('outlet-display')).toHaveTextContent(text);
  });

  it('when the session could not be initialised, then Authentication Error is toasted', () => {
    mockSession({ status: 'unauthenticated', me: null, initError: true });
    mockSelection();
    renderHeader('/auth');
    expect(notify).toHaveBeenCalledWith({
      title: 'Authentication Error',
      description: 'Failed to initialize authentication.',
      variant: 'destructive',
    });
  });
});

describe('profile menu (spec 000 §2, §6)', () => {
  it('when opened by a buyer, then the items come in the spec order and permission-gated items are hidden', async () => {
    mockSession();
    mockSelection();
    renderHeader('/cart');
    const menu = await openMenu();
    const names = within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent?.trim());
    expect(names[0]).toBe('Shop');
    expect(names.slice(0, 4)).toEqual(['Shop', 'My Cart', 'My Orders', 'Pricing Calculator']);
    expect(names).toContain('Edit Profile');
    expect(names[names.length - 1]).toBe('Log Out');
    for (const hidden of ['Manage Store Orders', 'Invite User', 'Admin']) expect(names).not.toContain(hidden);
    expect(within(menu).getByText('OUTLETS')).toBeInTheDocument();
    expect(within(menu).getByText('STORES')).toBeInTheDocument();
  });

  it('when the user holds the permissions, then Manage Store Orders, Invite User and Admin show in that order', async () => {
    mockSession({}, [PERMISSIONS.ordersStoreManage, PERMISSIONS.usersAllowInvites, PERMISSIONS.uiShowAdminMenu]);
    mockSelection();
    renderHeader('/shop');
    const menu = await openMenu();
    const names = within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent?.trim());
    const at = (n: string) => names.indexOf(n);
    expect(at('Manage Store Orders')).toBeGreaterThan(-1);
    expect(at('Manage Store Orders')).toBeLessThan(at('Invite User'));
    expect(at('Invite User')).toBeLessThan(at('Admin'));
    expect(at('Admin')).toBeLessThan(at('Edit Profile'));
  });

  it('when on /shop, then Shop is highlighted and disabled', async () => {
    mockSession();
    mockSelection();
    renderHeader('/shop');
    const menu = await openMenu();
    const shop = within(menu).getByRole('menuitem', { name: 'Shop' });
    expect(shop).toHaveAttribute('aria-disabled', 'true');
    expect(shop).toHaveAttribute('aria-current', 'page');
  });

  it('when the title is built, then it is the first name, else the full name, else User', async () => {
    mockSession({ me: me(null, 'Jordan Full') });
    mockSelection();
    const { unmount } = renderHeader('/shop');
    expect(screen.getByRole('button', { name: 'Jordan Full' })).toBeInTheDocument();
    unmount();
    mockSession({ me: me(null, null) });
    renderHeader('/shop');
    expect(screen.getByRole('button', { name: 'User' })).toBeInTheDocument();
  });

  it('when another outlet is chosen, then it switches, toasts Outlet switched and closes the menu', async () => {
    mockSession();
    const sel = mockSelection();
    renderHeader('/shop');
    const menu = await openMenu();
    const current = within(menu).getByRole('menuitem', { name: /Court Avenue Taproom/ });
    expect(current).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(within(menu).getByRole('menuitem', { name: /Campustown Bistro/ }));
    expect(sel.selectOutlet).toHaveBeenCalledWith(2);
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ title: 'Outlet switched', description: 'Now viewing Campustown Bistro', variant: 'success' }),
    );
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('when a store switch fails, then the failure toast shows', async () => {
    mockSession();
    mockSelection({ selectStore: jest.fn().mockRejectedValue(new Error('x')) });
    renderHeader('/shop');
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: /Cyclone Liquors/ }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        title: 'Error',
        description: 'Failed to switch store. Please try again.',
        variant: 'destructive',
      }),
    );
  });

  it('when a store is chosen, then Store switched names it', async () => {
    mockSession();
    const sel = mockSelection();
    renderHeader('/shop');
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: /Cyclone Liquors/ }));
    expect(sel.selectStore).toHaveBeenCalledWith(4129);
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        title: 'Store switched',
        description: 'Now shopping from Cyclone Liquors',
        variant: 'success',
      }),
    );
  });

  it('when OUTLETS is collapsed, then only the current outlet shows and the state is kept for the session', async () => {
    mockSession();
    mockSelection();
    renderHeader('/shop');
    const menu = await openMenu();
    const toggle = within(menu).getByRole('menuitem', { name: /OUTLETS/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(menu).queryByRole('menuitem', { name: /Campustown Bistro/ })).not.toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: /Court Avenue Taproom/ })).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem(MENU_STATE_KEY)!)).toEqual({ outlets: false, stores: true });
  });

  it('when there is one outlet, then it shows without a toggle; with none, No outlets available / Select an outlet first', async () => {
    mockSession();
    mockSelection({ outlets: [outlet(1, 'Only One')], outlet: outlet(1, 'Only One'), stores: [], store: null });
    const { unmount } = renderHeader('/shop');
    let menu = await openMenu();
    expect(within(menu).queryByRole('menuitem', { name: /OUTLETS/ })).not.toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: /Only One/ })).toHaveAttribute('aria-disabled', 'true');
    expect(within(menu).getByText('No stores available for this outlet')).toBeInTheDocument();
    unmount();
    mockSelection({ outlets: [], outlet: null, stores: [], store: null });
    renderHeader('/shop');
    menu = await openMenu();
    expect(within(menu).getByText('No outlets available')).toBeInTheDocument();
    expect(within(menu).getByText('Select an outlet first')).toBeInTheDocument();
  });

  it('when the admin outlet is listed, then it reads System default outlet', async () => {
    mockSession();
    const admin = outlet(9, 'System Administration', { isAdminOutlet: true });
    mockSelection({ outlets: [outlet(1, 'Court Avenue Taproom'), admin] });
    renderHeader('/shop');
    const menu = await openMenu();
    expect(within(menu).getByRole('menuitem', { name: /System default outlet/ })).toBeInTheDocument();
  });

  it('when Log Out is chosen, then the session ends, the toast shows, the menu state is cleared and the user goes to /auth', async () => {
    const s = mockSession();
    mockSelection();
    sessionStorage.setItem(MENU_STATE_KEY, JSON.stringify({ outlets: false, stores: false }));
    renderHeader('/shop');
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Log Out' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/auth'));
    expect(s.signOut).toHaveBeenCalled();
    expect(notify).toHaveBeenCalledWith({
      title: 'Logged out successfully',
      description: 'You have been successfully logged out',
      variant: 'success',
    });
    expect(sessionStorage.getItem(MENU_STATE_KEY)).toBeNull();
  });

  it('when Log Out fails, then Failed to log out is toasted and the user stays', async () => {
    mockSession({ signOut: jest.fn().mockRejectedValue(new Error('down')) });
    mockSelection();
    renderHeader('/shop');
    const menu = await openMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Log Out' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ title: 'Error', description: 'Failed to log out. Please try again.', variant: 'destructive' }),
    );
    expect(screen.getByTestId('where')).toHaveTextContent('/shop');
  });

  it('when the menu is taller than the screen, then the scroll buttons move by 70% of the visible height', async () => {
    mockSession();
    mockSelection();
    const sizes = { clientHeight: 200, scrollHeight: 1000 };
    const ch = jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'menu-viewport' ? sizes.clientHeight : 0;
    });
    const sh = jest.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'menu-viewport' ? sizes.scrollHeight : 0;
    });
    renderHeader('/shop');
    await openMenu();
    const viewport = screen.getByTestId('menu-viewport');
    fireEvent.scroll(viewport);
    expect(screen.queryByRole('button', { name: 'Scroll up' })).not.toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Scroll down' }));
    expect(viewport.scrollTop).toBeCloseTo(200 * MENU_SCROLL_STEP);
    fireEvent.click(await screen.findByRole('button', { name: 'Scroll up' }));
    expect(viewport.scrollTop).toBe(0);
    ch.mockRestore();
    sh.mockRestore();
  });

  it('when the menu opens, then it is w-72 on mobile and w-64 from 768 px', async () => {
    mockSession();
    mockSelection();
    renderHeader('/shop');
    const menu = await openMenu();
    expect(menu.className).toMatch(/(^|\s)w-72(\s|$)/);
    expect(menu.className).toMatch(/md:w-64/);
  });

  it('when the session expires, then the expiry toast shows', () => {
    mockSession();
    mockSelection();
    renderHeader('/shop');
    window.dispatchEvent(new CustomEvent(SIGNED_OUT_EVENT, { detail: { reason: 'expired' } }));
    expect(notify).toHaveBeenCalledWith({ title: 'Your session has expired. Please sign in again.', variant: 'destructive' });
  });
});
