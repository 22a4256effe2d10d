import { Suspense, useEffect, type ComponentProps } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useSelection } from '@/lib/selection';
import { useSession } from '@/lib/session';
import { lazyNamed } from '@/lib/lazy-named';
import { DEFAULT_TITLE } from '../utils/names';
import { OutletDisplay } from './outlet-display';
import { useSessionNotices } from './session-notices';
import type { ProfileMenu as ProfileMenuComponent, ProfileMenuDialogs } from './profile-menu';

/** The profile menu (Radix menu, popper) loads only once someone is signed in: not on the sign-in page's first load. */
const ProfileMenu = lazyNamed<'ProfileMenu', ComponentProps<typeof ProfileMenuComponent>>(() => import('./profile-menu'), 'ProfileMenu');

/** Paths that show the default title and logo instead of the board (spec 000 §1). */
const DEFAULT_TITLE_PATHS = ['/auth', '/invitation/accept', '/payment'];

/**
 * The portal's logo (the same drawing as public/favicon.svg), drawn inline: no request of its own on a page load
 * (issue 26: on a phone's six connections it held one the scripts were waiting for).
 */
function Logo() {
  return (
    <svg viewBox="0 0 32 32" width={36} height={36} className="h-9 w-9 shrink-0" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#7c2d12" />
      <path d="M13 5h6v5c0 1.5 3 3 3 7v10a1 1 0 0 1-1 1H11a1 1 0 0 1-1-1V17c0-4 3-5.5 3-7z" fill="#fde68a" />
      <rect x="12" y="18" width="8" height="5" rx="1" fill="#7c2d12" />
    </svg>
  );
}

/**
 * The common header (spec 000 §1, §2): the current board's name linking to /shop, the current outlet,
 * and the profile menu. Signed out, or on /auth, /invitation/accept and /payment, it shows the default
 * title and the logo instead.
 */
export function AppHeader({ menuDialogs }: { menuDialogs?: ProfileMenuDialogs } = {}) {
  const { status, me } = useSession();
  const { store, outlet } = useSelection();
  const { pathname } = useLocation();
  useSessionNotices();

  const signedIn = status === 'authenticated' && Boolean(me);
  // While a session loads, the menu's chunk loads too, so it renders with the signed-in header at once.
  useEffect(() => {
    if (status !== 'unauthenticated') void ProfileMenu.preload().catch(() => undefined);
  }, [status]);
  const plain = !signedIn || DEFAULT_TITLE_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  const boardName = store?.boardName || outlet?.boardName || DEFAULT_TITLE;

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-white">
      {/* Phones: names wrap instead of being cut (issue 9 §2), so the bar may grow past 4 rem there. With a session (or
          one loading) its least height fits the board over an outlet name of two lines, so the bar does not grow
          when they arrive (issue 26: no layout shift as the session loads); signed out, the title's. */}
      <div
        className={`mx-auto flex max-w-7xl items-center gap-3 px-4 py-2 sm:px-6 md:h-16 md:min-h-16 md:py-0 ${
          status === 'unauthenticated' ? 'min-h-[4.25rem]' : 'min-h-[5.25rem]'
        }`}
      >
        {plain ? (
          <Link to="/" className="flex min-w-0 items-center gap-2.5 rounded-md">
            <Logo />
            <span className="truncate text-base font-semibold text-brand-900 sm:text-lg">{DEFAULT_TITLE}</span>
          </Link>
        ) : (
          <div className="flex min-w-0 flex-1 items-center gap-2.5 md:gap-4">
            <Link to="/shop" aria-hidden tabIndex={-1} className="shrink-0">
              <Logo />
            </Link>
            <div className="flex min-w-0 flex-col md:flex-row md:items-center md:gap-4">
              <Link
                to="/shop"
                title={boardName}
                className="break-words rounded-md text-sm font-semibold leading-tight text-brand-900 hover:text-brand-700 sm:text-base md:truncate md:text-lg"
              >
                {boardName}
              </Link>
              <span className="hidden h-6 w-px bg-stone-200 md:block" aria-hidden />
              <OutletDisplay className="text-xs md:text-sm" />
            </div>
          </div>
        )}
        <div className="ml-auto flex shrink-0 items-center">
          {signedIn && (
            <Suspense fallback={<span className="block h-10 w-24" aria-hidden />}>
              <ProfileMenu dialogs={menuDialogs} />
            </Suspense>
          )}
        </div>
      </div>
    </header>
  );
}
