import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ArrowLeft, Lock } from 'lucide-react';
import { ADMIN_ORG_MESSAGES, PERMISSIONS, type AdminStore } from '@portal/contracts';
import { useSession } from '@/lib/session';
import { StickySaveBar } from '@/components/admin/sticky-save-bar';
import { Button } from '@/components/ui/button';
import { EmptyState, PageSpinner } from '@/components/ui/feedback';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAdminStore } from './api/stores';
import { AssignedOutlets } from './components/assigned-outlets';
import { StoreDetailsCard, StoreSettingsCard } from './components/store-form-cards';
import { useStoreEditor } from './hooks/use-store-editor';
import { OrderingSettingsCard } from './components/ordering-settings-card';

const M = ADMIN_ORG_MESSAGES;

/**
 * The store editor at /admin/store/{id} and /admin/store/new (spec 002 §2, §5, §8): tabs Store, Settings
 * and Assigned Outlets (disabled for a new store); Back returns to /admin with the Stores tab. With only
 * bcc.stores.admin everything is read-only with a notice; bcc.stores.super_admin saves and assigns.
 */
export function StoreEditorRoute() {
  const { id } = useParams();
  const isNew = id === 'new';
  const storeId = isNew ? null : Number(id);
  const { hasPermission, hasAnyPermission } = useSession();
  const canEdit = hasPermission(PERMISSIONS.storesSuperAdmin);
  const navigate = useNavigate();
  const back = () => navigate('/admin', { state: { activeTab: 'stores' } });
  const store = useAdminStore(storeId);
  const [tab, setTab] = useState('store');

  if (!hasAnyPermission([PERMISSIONS.storesAdmin, PERMISSIONS.storesSuperAdmin])) {
    return (
      <Shell onBack={back} title="Store">
        <EmptyState title="Access Denied" description={M.storeViewDenied} />
      </Shell>
    );
  }
  if (isNew && !canEdit)
    return (
      <Shell onBack={back} title="Add Store">
        <EmptyState title="Access Denied" description={M.storeModifyDenied} />
      </Shell>
    );
  if (!isNew && (!Number.isInteger(storeId) || store.error)) {
    const notFound = !Number.isInteger(storeId) || store.error?.status === 404;
    return (
      <Shell onBack={back} title="Store">
        <EmptyState
          title={notFound ? 'Store not found or access denied' : 'Failed to fetch store details'}
          description={notFound ? undefined : store.error?.message}
        />
      </Shell>
    );
  }
  if (!isNew && !store.data) return <PageSpinner text="Loading store..." />;
  return (
    <Shell
      onBack={back}
      title={isNew ? 'Add Store' : store.data!.name}
      subtitle={
        isNew ? 'A new store of one of your boards' : `Store ${store.data!.id} · ${store.data!.warehouseCode} · ${store.data!.boardName}`
      }
    >
      {!canEdit && (
        <p role="note" className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <Lock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          Read-only: you can view this store, but changing its details, settings or assigned outlets needs the bcc.stores.super_admin
          permission.
        </p>
      )}
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Store editor">
          <TabsTrigger value="store">Store</TabsTrigger>
          <TabsTrigger value="settings">Settings</TabsTrigger>
          <TabsTrigger value="outlets" disabled={isNew}>
            Assigned Outlets
          </TabsTrigger>
        </TabsList>
        <StoreForm
          key={store.data?.id ?? 'new'}
          store={store.data}
          canEdit={canEdit}
          tab={tab}
          setTab={setTab}
          onSaved={(s) => {
            if (isNew) navigate(`/admin/store/${s.id}`, { replace: true });
            else void store.mutate(s, { revalidate: false });
          }}
        />
        {!isNew && tab === 'settings' && store.data && (
          <OrderingSettingsCard store={store.data} canEdit={canEdit} onSaved={(s) => void store.mutate(s, { revalidate: false })} />
        )}
        {!isNew && (
          <TabsContent value="outlets">
            <AssignedOutlets storeId={storeId!} storeName={store.data?.name} canEdit={canEdit} />
          </TabsContent>
        )}
      </Tabs>
    </Shell>
  );
}

function Shell({ title, subtitle, onBack, children }: { title: string; subtitle?: string; onBack: () => void; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl space-y-4 px-4 py-6 sm:py-8">
      <Button variant="ghost" size="sm" onClick={onBack}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Back
      </Button>
      <div>
        <h1 className="text-2xl font-semibold text-stone-900">{title}</h1>
        {subtitle && <p className="text-sm text-stone-500">{subtitle}</p>}
      </div>
      {children}
    </div>
  );
}

/** The Store and Settings tabs as one form; Save Store / Create Store under them for those who may edit. */
function StoreForm({
  store,
  canEdit,
  tab,
  setTab,
  onSaved,
}: {
  store?: AdminStore;
  canEdit: boolean;
  tab: string;
  setTab: (t: string) => void;
  onSaved: (s: AdminStore) => void;
}) {
  const { form, submit } = useStoreEditor({ store, setTab, onSaved });
  const {
    formState: { isSubmitting, isDirty },
  } = form;
  const showSave = canEdit && (tab === 'store' || tab === 'settings');
  return (
    <form onSubmit={submit} noValidate aria-label="Store">
      <TabsContent value="store" forceMount hidden={tab !== 'store'}>
        <StoreDetailsCard form={form} canEdit={canEdit} store={store} />
      </TabsContent>
      <TabsContent value="settings" forceMount hidden={tab !== 'settings'}>
        <StoreSettingsCard form={form} canEdit={canEdit} store={store} />
      </TabsContent>
      {showSave && (
        <StickySaveBar className="mt-4" status={!store ? 'New store' : isDirty ? 'Unsaved changes' : 'No changes'}>
          <Button type="submit" loading={isSubmitting} disabled={Boolean(store) && !isDirty}>
            {isSubmitting ? 'Saving...' : store ? 'Save Store' : 'Create Store'}
          </Button>
        </StickySaveBar>
      )}
    </form>
  );
}
