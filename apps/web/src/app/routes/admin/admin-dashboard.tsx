import { Suspense, useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useSession } from '@/lib/session';
import { PageSpinner } from '@/components/ui/feedback';
import { Tabs, TabsList, TabsPanel, TabsTrigger, tabPanelId, tabTriggerId } from '@/components/ui/tabs';
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
  const activeTab = visible.find((t) => t.id === requested) ?? visible[0];
  const active = activeTab?.id;
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
              <TabsTrigger key={t.id} value={t.id} id={tabTriggerId('admin', t.id)} aria-controls={tabPanelId('admin')}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {/* One panel: the active tab's (TabsPanel: no forced style calculation as the page mounts). */}
          {activeTab && (
            <TabsPanel name="admin" value={activeTab.id}>
              <Suspense fallback={<PageSpinner />}>
                <activeTab.Panel key={activeTab.id} />
              </Suspense>
            </TabsPanel>
          )}
        </Tabs>
      )}
    </div>
  );
}
