import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { useSWRConfig } from 'swr';
import { AUTH_MESSAGES, type Me } from '@portal/contracts';
import { forgetBoot, takeBootToken } from './boot';

type ApiModule = typeof import('./api');
/**
 * lib/api (ky) and the contracts' zod schemas load on first use, not with the first page: a signed-out
 * visit to /auth needs neither until someone signs in (issue 15 §4). `apiModule` is set once loaded.
 */
let apiModule: ApiModule | null = null;
async function loadApi(): Promise<ApiModule> {
  apiModule ??= await import('./api');
  return apiModule;
}
const loadContracts = () => import('@/lib/schemas');

/** The token refresh main.tsx started before the first render (startSessionEarly), for the bootstrap to take once. */
let earlyToken: Promise<string | null> | null = null;
/**
 * Called by main.tsx before the first render: on a signed-in page load the access token is asked for (and the
 * schemas /me is read with start downloading) at once, while React renders, instead of after the first commit;
 * the bootstrap below takes that answer (issue 26: signed-in screens load fast).
 */
export function startSessionEarly(): void {
  if (earlyToken || !hasSignedInFlag()) return;
  void loadContracts();
  // The boot script in index.html has usually asked already (its answer is taken, never asked twice: tokens rotate).
  earlyToken = takeBootToken() ?? loadApi().then((m) => m.refreshAccessToken());
}
function takeEarlyToken(): Promise<string | null> | null {
  const t = earlyToken;
  earlyToken = null;
  return t;
}

type Status = 'loading' | 'authenticated' | 'unauthenticated';

export interface SessionValue {
  status: Status;
  /** The signed-in user with profile, roles and permission codes (GET /me). */
  me: Me | null;
  /** True when the session could not be initialised on load (spec 000 §8 'Authentication Error'). */
  initError: boolean;
  /** True when the user holds `code` (false while loading or signed out; spec 000 §4). */
  hasPermission(code: string): boolean;
  /** True when the user holds any one of `codes`. */
  hasAnyPermission(codes: string[]): boolean;
  /** Password sign-in, then the account check; throws ApiError (refused) or SessionError (check failed). */
  /** Signs in with an email, or a phone number (any text without an @), and a password. */
  signIn(emailOrPhone: string, password: string): Promise<Me>;
  /** Ends the session on the server, then clears it here; throws (and keeps the session) when the server cannot be reached. */
  signOut(): Promise<void>;
  /** Re-reads GET /me (after a profile change). */
  reload(): Promise<void>;
}

/** Why a signed-out event happened: the user asked, or the session could not be refreshed. */
export type SignedOutReason = 'signed-out' | 'expired';

const SessionContext = createContext<SessionValue | null>(null);
/** Window event after the session ends; `detail.reason` is a SignedOutReason. */
export const SIGNED_OUT_EVENT = 'portal:signed-out';
/** Window event after a password sign-in (spec 000 §4 login event). */
export const SIGNED_IN_EVENT = 'portal:signed-in';
/**
 * Window event once a page load has its access token back from the refresh cookie, before /me answers: the
 * selection starts its requests then, alongside /me (lib/selection.tsx, issue 26: no waterfall on a signed-in load).
 */
export const SESSION_TOKEN_EVENT = 'portal:session-token';

/** Spec 000 §9: auto-refresh tick every 30 s; retries back off from 200 ms doubling; permission retries 1 s then 2 s. */
const REFRESH_TICK_MS = 30_000;
const REFRESH_AHEAD_MS = 60_000;
const REFRESH_BACKOFF_MS = [200, 400, 800];
const LOAD_RETRY_DELAYS_MS = [1000, 2000];

/**
 * Whether the server's script-readable presence flag `portal_signed_in` (set beside the httpOnly refresh
 * cookie, cleared with it) is there: only then can a page load have a session to refresh.
 */
export function hasSignedInFlag(): boolean {
  return typeof document !== 'undefined' && /(?:^|;\s*)portal_signed_in=1(?:;|$)/.test(document.cookie);
}

/** A failure of the account check after sign-in; `message` is the spec's text. */
export class SessionError extends Error {}

const wait = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Expiry (ms since epoch) read from the JWT's `exp`; 15 minutes from now when unreadable. */
function tokenExpiry(token: string): number {
  try {
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    if (typeof payload.exp === 'number') return payload.exp * 1000;
  } catch {
    /* not a JWT we can read */
  }
  return Date.now() + 15 * 60_000;
}

/** The user of the session's last /me answer (null before one, and after a sign-out), for onceUserKnown. */
let knownUser: Me | null = null;
const userListeners = new Set<(me: Me) => void>();
function announceUser(me: Me | null) {
  knownUser = me;
  if (me) for (const fn of [...userListeners]) fn(me);
}

/**
 * Runs `fn` once with the signed-in user, as soon as GET /me has answered (at once when it has): a screen asks for
 * user-keyed data such as the cart alongside its first page on a page load, instead of after its first render
 * (issue 26).
 */
export function onceUserKnown(fn: (me: Me) => void): void {
  if (knownUser) return fn(knownUser);
  const once = (me: Me) => {
    userListeners.delete(once);
    fn(me);
  };
  userListeners.add(once);
}

/**
 * GET /me (the boot script's answer first, once), retried twice (1 s, 2 s) after network or server errors; 4xx answers
 * are final (spec 000 §4).
 */
async function fetchMe(): Promise<Me> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [{ getBootedJson }, { meSchema }] = await Promise.all([loadApi(), loadContracts()]);
      return await getBootedJson('/me', meSchema);
    } catch (e) {
      const err = (await loadApi()).toApiError(e);
      const retryable = err.status === 0 || err.status >= 500;
      if (!retryable || attempt >= LOAD_RETRY_DELAYS_MS.length) throw e;
      await wait(LOAD_RETRY_DELAYS_MS[attempt]);
    }
  }
}

type LoadApi = () => Promise<ApiModule>;

/**
 * Bootstrap from the refresh cookie (ARCHITECTURE §4): with the signed-in flag, the cookie is exchanged for a token
 * and /me is loaded; a failed /me leaves the session signed out with `initError` set.
 */
function useBootstrapSession({
  accept,
  loadMe,
  api,
  setStatus,
  setInitError,
}: {
  accept: (token: string) => void;
  loadMe: () => Promise<Me>;
  api: LoadApi;
  setStatus: (status: Status) => void;
  setInitError: (failed: boolean) => void;
}) {
  // Bootstrap from the refresh cookie. Without the server's signed-in flag there is no session to refresh:
  // a signed-out start asks nothing (no failing request, issue 9 §10).
  useEffect(() => {
    let alive = true;
    (async () => {
      if (!hasSignedInFlag()) {
        setStatus('unauthenticated');
        return;
      }
      // The schemas /me is parsed with download while the token is being refreshed (not after it: one round trip less).
      void loadContracts();
      const { refreshAccessToken } = await api();
      if (!alive) return;
      const token = await (takeEarlyToken() ?? takeBootToken() ?? refreshAccessToken());
      if (!alive) return;
      if (!token) {
        forgetBoot();
        setStatus('unauthenticated');
        return;
      }
      accept(token);
      window.dispatchEvent(new Event(SESSION_TOKEN_EVENT));
      try {
        await loadMe();
      } catch {
        if (alive) {
          apiModule?.setAccessToken(null);
          setStatus('unauthenticated');
          setInitError(true);
        }
      }
    })();
    return () => {
      alive = false;
    };
  }, [loadMe, accept, api, setStatus, setInitError]);
}

/**
 * Keeps a signed-in session's token fresh: refreshed ahead of expiry on a 30 s tick (retried with backoff, then the
 * session ends as expired), and ended when a refresh inside lib/api fails.
 */
function useKeepSessionFresh({
  status,
  expiresAt,
  accept,
  clear,
  api,
  apiReady,
}: {
  status: Status;
  /** The access token's expiry (epoch ms; 0 when none). */
  expiresAt: RefObject<number>;
  accept: (token: string) => void;
  clear: (reason?: SignedOutReason) => void;
  api: LoadApi;
  apiReady: boolean;
}) {
  // Refresh ahead of expiry on a 30 s tick; a failed refresh is retried with backoff, then the session ends.
  useEffect(() => {
    if (status !== 'authenticated') return;
    let busy = false;
    const tick = async () => {
      if (busy || !expiresAt.current || Date.now() < expiresAt.current - REFRESH_AHEAD_MS) return;
      busy = true;
      try {
        const { refreshAccessToken } = await api();
        for (let i = 0; i <= REFRESH_BACKOFF_MS.length; i++) {
          const token = await refreshAccessToken();
          if (token) {
            accept(token);
            return;
          }
          if (i < REFRESH_BACKOFF_MS.length) await wait(REFRESH_BACKOFF_MS[i]);
        }
        clear('expired');
      } finally {
        busy = false;
      }
    };
    const id = setInterval(tick, REFRESH_TICK_MS);
    return () => clearInterval(id);
  }, [status, expiresAt, accept, clear, api]);

  // Listens for a refresh that failed inside lib/api, once lib/api is loaded (nothing to refresh before).
  useEffect(() => {
    if (!apiReady || !apiModule) return;
    const off = apiModule.onSessionExpired(() => clear('expired'));
    return () => {
      off();
    };
  }, [clear, apiReady]);
}

/**
 * Holds the session (ARCHITECTURE §4): the access token lives in memory only (lib/api); on load the
 * httpOnly refresh cookie is exchanged for a token; a 30 s tick refreshes it before it expires. Signing
 * out clears the token, the user, every cached response and broadcasts SIGNED_OUT_EVENT.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  // Without the signed-in flag the start is signed out at once: the first render is already the final one
  // (no second render of the whole tree after the bootstrap effect, issue 15 §4 total blocking time).
  const [status, setStatus] = useState<Status>(() => (hasSignedInFlag() ? 'loading' : 'unauthenticated'));
  const [me, setMe] = useState<Me | null>(null);
  const [initError, setInitError] = useState(false);
  const expiresAt = useRef(0);
  const [apiReady, setApiReady] = useState(apiModule !== null);
  const api = useCallback(async () => {
    const m = await loadApi();
    setApiReady(true);
    return m;
  }, []);
  const { mutate: mutateCache } = useSWRConfig();

  const clear = useCallback(
    (reason: SignedOutReason = 'signed-out') => {
      apiModule?.setAccessToken(null);
      forgetBoot();
      expiresAt.current = 0;
      announceUser(null);
      setMe(null);
      setStatus('unauthenticated');
      void mutateCache(() => true, undefined, { revalidate: false });
      window.dispatchEvent(new CustomEvent(SIGNED_OUT_EVENT, { detail: { reason } }));
    },
    [mutateCache],
  );

  const accept = useCallback((token: string) => {
    apiModule?.setAccessToken(token);
    expiresAt.current = tokenExpiry(token);
  }, []);

  const loadMe = useCallback(async () => {
    const m = await fetchMe();
    announceUser(m);
    // The signed-in tree's first render is a transition: React renders it in slices, yielding to the browser every
    // few milliseconds, instead of one long task (issue 26: total blocking time on signed-in page loads).
    startTransition(() => {
      setMe(m);
      setStatus('authenticated');
    });
    return m;
  }, []);

  useBootstrapSession({ accept, loadMe, api, setStatus, setInitError });
  useKeepSessionFresh({ status, expiresAt, accept, clear, api, apiReady });

  const signIn = useCallback(
    async (email: string, password: string) => {
      forgetBoot();
      const [{ api: http, setAccessToken }, { tokenResponseSchema }] = await Promise.all([api(), loadContracts()]);
      // The "Email or phone" field: an @ makes it an email, anything else a phone (normalised by the server).
      const t = tokenResponseSchema.parse(
        await http.post('/auth/login', { json: email.includes('@') ? { email, password } : { phone: email, password } }),
      );
      accept(t.access_token);
      let m: Me;
      try {
        m = await fetchMe();
      } catch {
        await http.post('/auth/logout').catch(() => undefined);
        setAccessToken(null);
        throw new SessionError('Unable to verify account status. Please try again.');
      }
      if (!m.user.isActive) {
        await http.post('/auth/logout').catch(() => undefined);
        setAccessToken(null);
        throw new SessionError(AUTH_MESSAGES.deactivated);
      }
      setInitError(false);
      setMe(m);
      setStatus('authenticated');
      window.dispatchEvent(new Event(SIGNED_IN_EVENT));
      return m;
    },
    [accept, api],
  );

  const signOut = useCallback(async () => {
    const { api: http, toApiError } = await api();
    try {
      await http.post('/auth/logout');
    } catch (e) {
      const err = toApiError(e);
      // Unreachable server: keep the session so the person can try again (spec 000 §8 log-out failure).
      if (err.status === 0 || err.status >= 500) throw err;
    }
    clear('signed-out');
  }, [clear, api]);

  const reload = useCallback(async () => {
    await loadMe();
  }, [loadMe]);

  const value = useMemo<SessionValue>(() => {
    const codes = new Set(status === 'authenticated' ? (me?.permissions ?? []) : []);
    return {
      status,
      me,
      initError,
      signIn,
      signOut,
      reload,
      hasPermission: (c) => codes.has(c),
      hasAnyPermission: (cs) => cs.some((c) => codes.has(c)),
    };
  }, [status, me, initError, signIn, signOut, reload]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session; throws when used outside SessionProvider (spec 000 §8). */
export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession must be used within a SessionProvider');
  return v;
}
