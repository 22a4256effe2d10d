import { render } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { SessionProvider, useSession, type SessionValue } from '@/lib/session';

let current: SessionValue | undefined;
/** Shows the session's status and keeps its value for sessionNow(); throws outside SessionProvider (as useSession). */
export function SessionProbe() {
  current = useSession();
  return <p data-testid="status">{current.status}</p>;
}

/**
 * Renders SessionProvider alone (a fresh SWR cache) with a probe that shows its `status` (data-testid "status"), for
 * the session's own tests; sessionNow() is the value it last rendered.
 */
export function renderSession() {
  return render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <SessionProvider>
        <SessionProbe />
      </SessionProvider>
    </SWRConfig>,
  );
}

/** The session value renderSession's probe last rendered (throws before the first render). */
export function sessionNow(): SessionValue {
  if (!current) throw new Error('renderSession() first');
  return current;
}
