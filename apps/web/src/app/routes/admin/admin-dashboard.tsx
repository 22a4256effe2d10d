import { Suspense, useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useSession } from '@/lib/session';
import { PageSpinner } from '@/components/ui/feedback';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ADMIN_TABS } from './tabs';

/**
 * /admin (spec 002 §2 Admin dashboard): the tabs the user holds a permission for, in the spec's order.
 * The active tab comes from the URL's `tab`, else the navigation state's `activeTab`; otherwise Data Synch
 * when allowed, else the first visible tab.
 */
export function AdminRoute() {
  const { hasAnyPermission } = useSession();
  const location = useLocation();
  const visible = useMemo(() => ADMIN_TABS.filter((t) => hasAnyPermission([...t.permissions])), [hasAnyPermission]);
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') ?? (location.state as { activeTab?: string } | null)?.activeTab;
  const active = visible.find((t) => t.id === requested)?.id ?? visible[0]?.id;
  // The tab is in the URL (?tab=users) beside its list's state, so Back from an edit screen returns to both;
  // another tab starts from its list's defaults.
  const setActive = (id: string) => setParams({ tab: id }, { replace: true });

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-semibold text-stone-900">Admin</h1>
      {visible.length === 0 ? (
        <p className="mt-4 text-sm text-stone-600">You don&apos;t have access to any administration area.</p>
      ) : (
        <Tabs value={active} onValueChange={setActive} className="mt-4">
          <TabsList aria-label="Administration areas">
            {visible.map((t) => (
              <TabsTrigger key={t.id} value={t.id}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {visible.map((t) => (
            <TabsContent key={t.id} value={t.id}>
              <Suspense fallback={<PageSpinner />}>
                <t.Panel />
              </Suspense>
            </TabsContent>
          ))}
        </Tabs>
      )}
    </div>
  );
}
