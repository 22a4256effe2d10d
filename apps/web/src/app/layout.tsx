import { Outlet } from 'react-router-dom';

/** The common header and page frame (every route except the invitation one). Built in the identity issue. */
export function AppLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center px-4 font-semibold text-brand-900">Liquor Ordering Portal</div>
      </header>
      <main className="flex-1"><Outlet /></main>
    </div>
  );
}
