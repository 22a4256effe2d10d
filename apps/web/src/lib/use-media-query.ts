import { useCallback, useSyncExternalStore } from 'react';

/** True while the CSS media query matches (true when matchMedia is unavailable, e.g. in tests without it). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const mql = window.matchMedia(query);
      mql.addEventListener('change', onChange);
      return () => mql.removeEventListener('change', onChange);
    },
    [query],
  );
  const get = () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : true);
  return useSyncExternalStore(subscribe, get, () => true);
}

/** Desktop layout from 768 px (tables); below it, cards. */
export const DESKTOP_QUERY = '(min-width: 768px)';
