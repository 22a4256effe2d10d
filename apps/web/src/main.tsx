import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { AppProviders } from './app/providers';
import { AppRouter, preloadScreen } from './app/router';
import { hasSignedInFlag, startSessionEarly } from './lib/session';
import { warmClassMerge } from './lib/cn';

// Signed in: the session refresh starts now, and the page's screen downloads alongside it, not after the first
// render and the guard (issue 26: signed-in screens load fast).
if (hasSignedInFlag()) {
  startSessionEarly();
  preloadScreen(window.location.pathname);
} else preloadScreen('/auth'); // where a signed-out visit ends

// The first render runs as a transition: React yields to the browser every few milliseconds instead of
// blocking the main thread for the whole tree (issue 15 §4, total blocking time); what shows is the same.
// tailwind-merge gets ready first, in tasks of its own (in a component's render React cannot yield).
const root = createRoot(document.getElementById('root')!);
warmClassMerge(() =>
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppProviders>
          <AppRouter />
        </AppProviders>
      </StrictMode>,
    );
  }),
);
