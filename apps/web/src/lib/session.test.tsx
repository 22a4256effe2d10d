import { act, render, screen, waitFor } from '@testing-library/react';
import { AUTH_MESSAGES, meSchema, tokenResponseSchema, type Me } from '@portal/contracts';
import { FakeApi, problem, reply, unreachable } from '@/test/fake-api';
import { meFixture } from '@/test/me-fixture';
import { renderSession, SessionProbe, sessionNow } from '@/test/render-session';
import { ApiError, getAccessToken, setAccessToken } from './api';
import { SESSION_TOKEN_EVENT, SessionError, SIGNED_IN_EVENT, SIGNED_OUT_EVENT, startSessionEarly } from './session';

const jwt = (exp: number) => `h.${btoa(JSON.stringify({ sub: 'u1', exp }))}.s`;
const meOf = (isActive = true): Me =>
  meFixture({ user: { id: 'u1', email: 'buyer@example.com', isActive, lastLoginAt: null }, permissions: ['bcc.carts.use'] });
const tokenResponse = {
  access_token: jwt(Math.floor(Date.now() / 1000) + 900),
  token_type: 'bearer' as const,
  expires_in: 900,
  expires_at: 0,
  user: { id: 'u1', email: 'buyer@example.com' },
};

/** The fake API (test/fake-api.ts) answering lib/api, the refresh included; without a refresh cookie the refresh is refused. */
let fake: FakeApi;
const refreshes = () => fake.urls('post').filter((u) => u === '/auth/refresh').length;
const refreshAnswers = (token: string) => fake.on('post', '/auth/refresh', { status: 200, body: { access_token: token } });

// The server's signed-in flag (issue 9 §10): present unless a test says otherwise.
beforeEach(() => {
  document.cookie = 'portal_signed_in=1; path=/';
});
beforeEach(() => {
  setAccessToken(null);
  fake = new FakeApi().on('post', '/auth/refresh', problem(401, 'unauthenticated')).install();
});
afterEach(() => {
  fake.uninstall();
  jest.restoreAllMocks();
});

describe('session (spec 000 §4, ARCHITECTURE §4)', () => {
  it('when the signed-in flag cookie is absent, then the session starts signed out without asking /auth/refresh (no failing request on a signed-out load)', async () => {
    document.cookie = 'portal_signed_in=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated'));
    expect(fake.calls).toEqual([]);
  });

  it('when there is no refresh cookie, then the session is signed out and every permission is false', async () => {
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('unauthenticated'));
    expect(sessionNow().hasPermission('bcc.carts.use')).toBe(false);
    expect(sessionNow().initError).toBe(false);
  });

  it('when the refresh cookie is valid, then the token is kept in memory and /me loads the user with permissions', async () => {
    refreshAnswers('tok-1');
    fake.on('get', '/me', reply(meSchema, meOf()));
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    expect(getAccessToken()).toBe('tok-1');
    expect(sessionNow().hasPermission('bcc.carts.use')).toBe(true);
    expect(sessionNow().hasAnyPermission(['bcc.orders.store.manage', 'bcc.carts.use'])).toBe(true);
    expect(sessionNow().hasAnyPermission(['bcc.orders.store.manage'])).toBe(false);
  });

  it('when main.tsx started the refresh before the first render, then the bootstrap takes its token (one refresh) and selection is told the token is back', async () => {
    refreshAnswers('tok-early');
    fake.on('get', '/me', reply(meSchema, meOf()));
    const told = jest.fn();
    window.addEventListener(SESSION_TOKEN_EVENT, told);
    startSessionEarly();
    renderSession();
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('authenticated'));
    window.removeEventListener(SESSION_TOKEN_EVENT, told);
    expect(refreshes()).toBe(1);
    expect(getAccessToken()).toBe('tok-early');
    expect(told).toHaveBeenCalledTimes(1);
  });

  it('when /me fails after the refresh, then the session starts signed out with the init error flag', async () => {
    refreshAnswers('tok-1');
    fake.on('get', '/me', problem(403, 'forbidden'));
    renderSession();
    await waitFor(() => expect(sessionNow().initError).toBe(true));
    expect(sessionNow().status).toBe('unauthenticated');
  });

  it('when signing in, then the login event is broadcast and the user is authenticated', async () => {
    fake.on('post', '/auth/login', reply(tokenResponseSchema, tokenResponse));
    fake.on('get', '/me', reply(meSchema, meOf()));
    renderSession();
    await waitFor(() => expect(sessionNow().status).toBe('unauthenticated'));
    const heard = jest.fn();
    window.addEventListener(SIGNED_IN_EVENT, heard);
    await act(async () => {
      await sessionNow().signIn('buyer@example.com', 'pw');
    });
    window.removeEventListener(SIGNED_IN_EVENT, heard);
    expect(fake.calls).toContainEqual({ method: 'post', url: '/auth/login', body: { email: 'buyer@example.com', password: 'pw' } });
    expect(sessionNow().status).toBe('authenticated');
    expect(heard).toHaveBeenCalled();
  });

  it('when signing in with a phone number, then the body carries phone, not email', async () => {
    fake.on('post', '/auth/login', reply(tokenResponseSchema, tokenResponse));
    fake.on('get', '/me', reply(meSchema, meOf()));
    renderSession();
    await waitFor(() => expect(sessionNow().status).toBe('unauthenticated'));
    await act(async () => {
      await sessionNow().signIn('(515) 555-0100', 'pw');
    });
    expect(fake.calls).toContainEqual({ method: 'post', url: '/auth/login', body: { phone: '(515) 555-0100', password: 'pw' } });
  });

  it('when the account turns out inactive after sign-in, then it is signed out again with the deactivated message', async () => {
    fake.on('post', '/auth/login', reply(tokenResponseSchema, tokenResponse)).on('post', '/auth/logout', { status: 204 });
    fake.on('get', '/me', reply(meSchema, meOf(false)));
    renderSession();
    await waitFor(() => expect(sessionNow().status).toBe('unauthenticated'));
    await act(async () => {
      await expect(sessionNow().signIn('buyer@example.com', 'pw')).rejects.toEqual(new SessionError(AUTH_MESSAGES.deactivated));
    });
    expect(fake.urls('post')).toContain('/auth/logout');
    expect(sessionNow().status).toBe('unauthenticated');
    expect(getAccessToken()).toBeNull();
  });

  it('when the account check fails after sign-in, then Unable to verify account status is the error', async () => {
    fake.on('post', '/auth/login', reply(tokenResponseSchema, tokenResponse)).on('post', '/auth/logout', { status: 204 });
    fake.on('get', '/me', problem(404, 'not_found'));
    renderSession();
    await waitFor(() => expect(sessionNow().status).toBe('unauthenticated'));
    await act(async () => {
      await expect(sessionNow().signIn('a@b.co', 'pw')).rejects.toThrow('Unable to verify account status. Please try again.');
    });
  });

  it('when signing out, then the session clears and the signed-out event is broadcast; an unreachable server keeps it', async () => {
    refreshAnswers('tok-1');
    fake.on('get', '/me', reply(meSchema, meOf()));
    let logouts = 0;
    fake.on('post', '/auth/logout', (call, m) => (logouts++ === 0 ? unreachable()(call, m) : { status: 204 }));
    renderSession();
    await waitFor(() => expect(sessionNow().status).toBe('authenticated'));
    await act(async () => {
      await expect(sessionNow().signOut()).rejects.toBeInstanceOf(ApiError);
    });
    expect(sessionNow().status).toBe('authenticated');
    const heard = jest.fn();
    window.addEventListener(SIGNED_OUT_EVENT, heard);
    await act(async () => {
      await sessionNow().signOut();
    });
    window.removeEventListener(SIGNED_OUT_EVENT, heard);
    expect(sessionNow().status).toBe('unauthenticated');
    expect(sessionNow().me).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect((heard.mock.calls[0][0] as CustomEvent).detail).toEqual({ reason: 'signed-out' });
  });

  it('when used outside its provider, then useSession throws', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<SessionProbe />)).toThrow('useSession must be used within a SessionProvider');
  });
});
