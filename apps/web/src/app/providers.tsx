import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { SessionProvider } from '../lib/session';
import { SelectionProvider } from '../lib/selection';
import { Toaster } from '../components/ui/toaster';

/** App-wide providers: SWR defaults (spec 000 §9 cache/retry), session, outlet/store selection, toasts. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={{ revalidateOnFocus: false, errorRetryCount: 3, shouldRetryOnError: (e) => !(e?.status >= 400 && e?.status < 500) }}>
      <SessionProvider>
        <SelectionProvider>
          {children}
          <Toaster />
        </SelectionProvider>
      </SessionProvider>
    </SWRConfig>
  );
}
