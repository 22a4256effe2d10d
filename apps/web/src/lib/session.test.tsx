import { act, render, screen, waitFor } from '@testing-library/react';
import axios from 'axios';
import { SWRConfig } from 'swr';
import { AUTH_MESSAGES, type Me } from '@portal/contracts';
import { api, ApiError, getAccessToken } from './api';
import {
  SESSION_TOKEN_EVENT,
  SessionError,
  SessionProvider,
  SIGNED_IN_EVENT,
  SIGNED_OUT_EVENT,
  startSessionEarly,
  useSession,
  type SessionValue,
} from './session';

const jwt = (exp: number) => `h.${btoa(JSON.stringify({ sub: 'u1', exp }))}.s`;
const meOf = (isActive = true): Me => ({
  user: { id: 'u1', email: 'buyer@example.com', isActive, lastLoginAt: null },
  profile: {
    userId: 'u1',
    email: 'buyer@example.com',
    firstName: 'Blake',
    lastName: 'Buyer',
    fullName: 'Blake Buyer',
    phone: null,
    lastSelectedOutletId: null,
    lastSelectedStoreId: null,
  },
  roles: [],
  permissions: ['bcc.carts.use'],
});
const tokenResponse = {
  access_token: jwt(Math.floor(Date.now() / 1000) + 900),
  token_type: 'bearer',
  expires_in: 900,
  expires_at: 0,
  user: { id: 'u1', email: 'buyer@example.com' },
};
const problem = (status: number) => ({
  response: { status, data: { type: 'about:blank', title: 'x', status, code: 'x' } },
  isAxiosError: true,
});

let current: SessionValue;
function Probe() {
  current = useSession();
  return <p data-testid="status">{current.status}</p>;
}
function renderSession() {
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <SessionProvider>
        <Probe />
      </SessionProvider>
    </SWRConfig>,
  );
}

// The server's signed-in flag (issue 9 §10): present unless a test says otherwise.
beforeEach(() => {
  document.cookie = 'portal_signed_in=1; path=/';
});
afterEach(() => jest.restoreAllMocks());

describe('session (spec 000 §4, ARCHITECTURE §4)', () => {
  it('when the signed-in flag cookie is absent, then the session starts signed out without asking /auth/refresh (no failing request on a signed-out load)', async () => {
    document.cookie = 'portal_signed_in=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    const post = jest.spyOn(axios, 'post').mockRejectedValue(problem(401));
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated'));
    expect(post).not.toHaveBeenCalled();
  });

  it('when there is no refresh cookie, then the session is signed out and every permission is false', async () => {
    jest.spyOn(axios, 'post').mockRejectedValue(problem(401));
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated'));
    expect(current.hasPermission('bcc.carts.use')).toBe(false);
    expect(current.initError).toBe(false);
  });

  it('when the refresh cookie is valid, then the token is kept in memory and /me loads the user with permissions', async () => {
    jest.spyOn(axios, 'post').mockResolvedValue({ data: { access_token: 'tok-1' } });
    jest.spyOn(api, 'get').mockResolvedValue({ data: meOf() });
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    expect(getAccessToken()).toBe('tok-1');
    expect(current.hasPermission('bcc.carts.use')).toBe(true);
    expect(current.hasAnyPermission(['bcc.orders.store.manage', 'bcc.carts.use'])).toBe(true);
    expect(current.hasAnyPermission(['bcc.orders.store.manage'])).toBe(false);
  });

  it('when main.tsx started the refresh before the first render, then the bootstrap takes its token (one refresh) and selection is told the token is back', async () => {
    const refresh = jest.spyOn(axios, 'post').mockResolvedValue({ data: { access_token: 'tok-early' } });
    jest.spyOn(api, 'get').mockResolvedValue({ data: meOf() });
    const told = jest.fn();
    window.addEventListener(SESSION_TOKEN_EVENT, told);
    startSessionEarly();
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    window.removeEventListener(SESSION_TOKEN_EVENT, told);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(getAccessToken()).toBe('tok-early');
    expect(told).toHaveBeenCalledTimes(1);
  });

  it('when /me fails after the refresh, then the session starts signed out with the init error flag', async () => {
    jest.spyOn(axios, 'post').mockResolvedValue({ data: { access_token: 'tok-1' } });
    jest.spyOn(api, 'get').mockRejectedValue(new ApiError(403, { type: 'x', title: 'x', status: 403, code: 'forbidden' }));
    renderSession();
    await waitFor(() => expect(current.initError).toBe(true));
    expect(current.status).toBe('unauthenticated');
  });

  it('when signing in, then the login event is broadcast and the user is authenticated', async () => {
    jest.spyOn(axios, 'post').mockRejectedValue(problem(401));
    const post = jest.spyOn(api, 'post').mockResolvedValue({ data: tokenResponse });
    jest.spyOn(api, 'get').mockResolvedValue({ data: meOf() });
    renderSession();
    await waitFor(() => expect(current.status).toBe('unauthenticated'));
    const heard = jest.fn();
    window.addEventListener(SIGNED_IN_EVENT, heard);
    await act(async () => {
      await current.signIn('buyer@example.com', 'pw');
    });
    window.removeEventListener(SIGNED_IN_EVENT, heard);
    expect(post).toHaveBeenCalledWith('/auth/login', { email: 'buyer@example.com', password: 'pw' });
    expect(current.status).toBe('authenticated');
    expect(heard).toHaveBeenCalled();
  });

  it('when signing in with a phone number, then the body carries phone, not email', async () => {
    jest.spyOn(axios, 'post').mockRejectedValue(problem(401));
    const post = jest.spyOn(api, 'post').mockResolvedValue({ data: tokenResponse });
    jest.spyOn(api, 'get').mockResolvedValue({ data: meOf() });
    renderSession();
    await waitFor(() => expect(current.status).toBe('unauthenticated'));
    await act(async () => {
      await current.signIn('(515) 555-0100', 'pw');
    });
    expect(post).toHaveBeenCalledWith('/auth/login', { phone: '(515) 555-0100', password: 'pw' });
  });

  it('when the account turns out inactive after sign-in, then it is signed out again with the deactivated message', async () => {
    jest.spyOn(axios, 'post').mockRejectedValue(problem(401));
    const post = jest
      .spyOn(api, 'post')
      .mockImplementation(async (url: string) => (url === '/auth/login' ? { data: tokenResponse } : { data: '' }));
    jest.spyOn(api, 'get').mockResolvedValue({ data: meOf(false) });
    renderSession();
    await waitFor(() => expect(current.status).toBe('unauthenticated'));
    await act(async () => {
      await expect(current.signIn('buyer@example.com', 'pw')).rejects.toEqual(new SessionError(AUTH_MESSAGES.deactivated));
    });
    expect(post).toHaveBeenCalledWith('/auth/logout');
    expect(current.status).toBe('unauthenticated');
    expect(getAccessToken()).toBeNull();
  });

  it('when the account check fails after sign-in, then Unable to verify account status is the error', async () => {
    jest.spyOn(axios, 'post').mockRejectedValue(problem(401));
    jest.spyOn(api, 'post').mockImplementation(async (url: string) => (url === '/auth/login' ? { data: tokenResponse } : { data: '' }));
    jest.spyOn(api, 'get').mockRejectedValue(new ApiError(404, { type: 'x', title: 'x', status: 404, code: 'not_found' }));
    renderSession();
    await waitFor(() => expect(current.status).toBe('unauthenticated'));
    await act(async () => {
      await expect(current.signIn('a@b.co', 'pw')).rejects.toThrow('Unable to verify account status. Please try again.');
    });
  });

  it('when signing out, then the session clears and the signed-out event is broadcast; an unreachable server keeps it', async () => {
    jest.spyOn(axios, 'post').mockResolvedValue({ data: { access_token: 'tok-1' } });
    jest.spyOn(api, 'get').mockResolvedValue({ data: meOf() });
    const post = jest
      .spyOn(api, 'post')
      .mockRejectedValueOnce(new ApiError(0, { type: 'x', title: 'x', status: 0, code: 'network_error' }));
    renderSession();
    await waitFor(() => expect(current.status).toBe('authenticated'));
    await act(async () => {
      await expect(current.signOut()).rejects.toBeInstanceOf(ApiError);
    });
    expect(current.status).toBe('authenticated');
    post.mockResolvedValue({ status: 204, data: '' });
    const heard = jest.fn();
    window.addEventListener(SIGNED_OUT_EVENT, heard);
    await act(async () => {
      await current.signOut();
    });
    window.removeEventListener(SIGNED_OUT_EVENT, heard);
    expect(current.status).toBe('unauthenticated');
    expect(current.me).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect((heard.mock.calls[0][0] as CustomEvent).detail).toEqual({ reason: 'signed-out' });
  });

  it('when used outside its provider, then useSession throws', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Probe />)).toThrow('useSession must be used within a SessionProvider');
  });
});
