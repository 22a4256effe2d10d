import { Outlet } from 'react-router-dom';
import { AppHeader } from '../features/navigation/components/app-header';

/** The common header and page frame (every route except the invitation one, spec 000 §2). */
export function AppLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <AppHeader />
      <main className="flex-1"><Outlet /></main>
    </div>
  );
}
