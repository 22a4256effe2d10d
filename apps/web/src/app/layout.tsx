import { lazy } from 'react';
import { Outlet } from 'react-router-dom';
import { AppHeader } from '../features/navigation/components/app-header';
import type { ProfileMenuDialogs } from '../features/navigation/components/profile-menu';

/** The profile menu's dialogs from the invitations feature, loaded when first opened. */
const menuDialogs: ProfileMenuDialogs = {
  InviteUser: lazy(async () => ({ default: (await import('../features/invitations')).InviteUserDialog })),
  OutletRequests: lazy(async () => ({ default: (await import('../features/invitations')).RequestsDialog })),
};

/** The common header and page frame (every route except the invitation one, spec 000 §2). */
export function AppLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <div className="contents print:hidden">
        <AppHeader menuDialogs={menuDialogs} />
      </div>
      <main className="flex-1">
        <Outlet />
      </main>
    </div>
  );
}
