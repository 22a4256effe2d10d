import { useEffect, useState } from 'react';

/** Whole minutes from now until `expiresAt`, rounded up; 0 once it has passed. */
export function minutesUntil(expiresAt: string, now = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(expiresAt).getTime() - now) / 60_000));
}

/** Live minutes until `expiresAt` (re-read every 5 seconds). */
export function useMinutesLeft(expiresAt: string | null): number | null {
  const [minutes, setMinutes] = useState(() => (expiresAt ? minutesUntil(expiresAt) : null));
  useEffect(() => {
    if (!expiresAt) {
      setMinutes(null);
      return;
    }
    setMinutes(minutesUntil(expiresAt));
    const id = setInterval(() => setMinutes(minutesUntil(expiresAt)), 5_000);
    return () => clearInterval(id);
  }, [expiresAt]);
  return minutes;
}
