import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { AppProviders } from './app/providers';
import { AppRouter, preloadScreen } from './app/router';
import { hasSignedInFlag } from './lib/session';

// Signed in: the page's screen downloads alongside the session refresh, not after it (issue 26: signed-in load).
if (hasSignedInFlag()) preloadScreen(window.location.pathname);

// The first render runs as a transition: React yields to the browser every few milliseconds instead of
// blocking the main thread for the whole tree (issue 15 §4, total blocking time); what shows is the same.
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProviders>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
});
