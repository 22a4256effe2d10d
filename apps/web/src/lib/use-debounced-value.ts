import { useEffect, useState } from 'react';

/** `value` after it stopped changing for `ms` (spec 002 §9: search debounce 300 ms). */
export function useDebouncedValue<T>(value: T, ms = 300): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
