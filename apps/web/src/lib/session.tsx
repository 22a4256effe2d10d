import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { meSchema, tokenResponseSchema, type Me } from '@portal/contracts';
import { api, getJson, onSessionExpired, refreshAccessToken, setAccessToken } from './api';

type Status = 'loading' | 'authenticated' | 'unauthenticated';

export interface SessionValue {
  status: Status;
  /** The signed-in user with profile, roles and permission codes (GET /me). */
  me: Me | null;
  /** True when the user holds `code` (false while loading or signed out; spec 000 §4). */
  hasPermission(code: string): boolean;
  /** True when the user holds any one of `codes`. */
  hasAnyPermission(codes: string[]): boolean;
  signIn(email: string, password: string): Promise<Me>;
  signOut(): Promise<void>;
  /** Re-reads GET /me (after a profile change). */
  reload(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);
export const SIGNED_OUT_EVENT = 'portal:signed-out';
export const SIGNED_IN_EVENT = 'portal:signed-in';

/**
 * Holds the session (ARCHITECTURE §4): the access token lives in memory only (lib/api); on load the
 * httpOnly refresh cookie is exchanged for a token; the token is refreshed before it expires.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Status>('loading');
  const [me, setMe] = useState<Me | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const clear = useCallback(() => {
    setAccessToken(null);
    setMe(null);
    setStatus('unauthenticated');
    clearTimeout(timer.current);
    window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
  }, []);

  const schedule = useCallback((expiresInSeconds: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const token = await refreshAccessToken();
      if (token) schedule(Math.max(60, expiresInSeconds));
      else clear();
    }, Math.max(10, expiresInSeconds - 60) * 1000);
  }, [clear]);

  const loadMe = useCallback(async () => {
    const m = await getJson('/me', meSchema);
    setMe(m);
    setStatus('authenticated');
    return m;
  }, []);

  useEffect(() => {
    let alive = true;
    (async () => {
      const token = await refreshAccessToken();
      if (!alive) return;
      if (!token) { setStatus('unauthenticated'); return; }
      try { await loadMe(); schedule(900); } catch { if (alive) clear(); }
    })();
    const off = onSessionExpired(clear);
    return () => { alive = false; off(); clearTimeout(timer.current); };
  }, [loadMe, schedule, clear]);

  const signIn = useCallback(async (email: string, password: string) => {
    const res = await api.post('/auth/login', { email, password });
    const t = tokenResponseSchema.parse(res.data);
    setAccessToken(t.access_token);
    schedule(t.expires_in);
    const m = await loadMe();
    window.dispatchEvent(new Event(SIGNED_IN_EVENT));
    return m;
  }, [loadMe, schedule]);

  const signOut = useCallback(async () => {
    try { await api.post('/auth/logout'); } finally { clear(); }
  }, [clear]);

  const reload = useCallback(async () => { await loadMe(); }, [loadMe]);

  const value = useMemo<SessionValue>(() => {
    const codes = new Set(me?.permissions ?? []);
    return {
      status, me, signIn, signOut, reload,
      hasPermission: (c) => codes.has(c),
      hasAnyPermission: (cs) => cs.some((c) => codes.has(c)),
    };
  }, [status, me, signIn, signOut, reload]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session; throws when used outside SessionProvider (spec 000 §8). */
export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession must be used within a SessionProvider');
  return v;
}
