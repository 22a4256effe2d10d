import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { useSession } from '@/lib/session';
import { renderRoute } from '@/test/render-route';
import { HomeRoute } from './home';

jest.mock('@/lib/session', () => ({ ...jest.requireActual('@/lib/session'), useSession: jest.fn() }));

function Where() {
  const l = useLocation();
  return <p data-testid="where">{`${l.pathname}${l.search}${l.hash}`}</p>;
}
function renderAt(url: string, status: 'loading' | 'authenticated' | 'unauthenticated') {
  (useSession as jest.Mock).mockReturnValue({ status });
  renderRoute(
    <Routes>
      <Route path="/" element={<HomeRoute />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { url },
  );
}

describe('root path (spec 000 §2)', () => {
  it('when loading, then a spinner shows', () => {
    renderAt('/', 'loading');
    expect(screen.getByRole('status')).toBeInTheDocument();
  });
  it('when signed in, then it goes to /shop', () => {
    renderAt('/', 'authenticated');
    expect(screen.getByTestId('where')).toHaveTextContent('/shop');
  });
  it('when signed out, then it goes to /auth', () => {
    renderAt('/', 'unauthenticated');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/auth$/);
  });
  it('when the hash carries a recovery type, then it goes to /auth with the link even while loading', () => {
    renderAt('/#access_token=a&refresh_token=b&type=recovery', 'loading');
    expect(screen.getByTestId('where')).toHaveTextContent('/auth#access_token=a&refresh_token=b&type=recovery');
  });
});
