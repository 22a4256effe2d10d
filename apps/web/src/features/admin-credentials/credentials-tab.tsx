import { useState } from 'react';
import { Eye, FlaskConical, KeyRound, Pencil } from 'lucide-react';
import { ADMIN_ORG_MESSAGES, type PaymentCredential } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { DataTable, RowAction, actionsHeader, type Column } from '@/components/admin/data-table';
import { useEditDialog } from '@/components/admin/use-edit-dialog';
import { ResourcePanel } from '@/components/admin/resource-panel';
import { Badge } from '@/components/ui/feedback';
import { notify } from '@/components/ui/toaster';
import { testCredential, usePaymentCredentials } from './api/credentials';
import { CredentialDialog } from './components/credential-dialog';
import { RevealDialog } from './components/reveal-dialog';

/**
 * The Credentials tab (spec 002 §2, §5, §8): payment credentials newest first (never the secret); an
 * add/edit dialog; a decrypt view that asks for the current password (audited on the server); and a test
 * for Monetra credentials ('Test Successful' / 'Test Failed').
 */
export function CredentialsTab() {
  const credentials = usePaymentCredentials();
  const editing = useEditDialog<PaymentCredential>(credentials.mutate);
  const [revealing, setRevealing] = useState<PaymentCredential | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  const test = async (c: PaymentCredential) => {
    if (c.credentialType !== 'Monetra') {
      notify({ title: ADMIN_ORG_MESSAGES.testMonetraOnly, variant: 'destructive' });
      return;
    }
    setTesting(c.id);
    try {
      const r = await testCredential(c.id);
      notify({
        title: r.success ? 'Test Successful' : 'Test Failed',
        description: r.success ? `${c.storeName} (${c.environment})` : r.message,
        variant: r.success ? 'success' : 'destructive',
      });
    } catch (e) {
      notify({ title: 'Test Failed', description: toApiError(e).message, variant: 'destructive' });
    } finally {
      setTesting(null);
    }
  };
  const columns: Column<PaymentCredential>[] = [
    {
      header: 'Store',
      className: 'font-medium',
      sortKey: 'storeName',
      field: 'storeName',
      cell: (c) => (
        <>
          {c.storeName} <span className="text-xs text-stone-500">#{c.storeId}</span>
        </>
      ),
    },
    { header: 'App', field: 'appCode' },
    { header: 'Environment', cell: (c) => (c.environment === 'prod' ? <Badge variant="warning">prod</Badge> : <Badge>test</Badge>) },
    { header: 'Type', field: 'credentialType' },
    { header: 'Secret name', field: 'dekSecretName', className: 'font-mono text-xs' },
    {
      header: 'Updated',
      className: 'text-xs text-stone-600',
      sortKey: 'updatedAt',
      field: 'updatedAt',
      cell: (c) => `${formatDateTime(c.updatedAt)}${c.updatedBy ? ` · ${c.updatedBy}` : ''}`,
    },
    {
      header: actionsHeader,
      cell: (c) => (
        <div className="flex flex-wrap gap-1">
          <RowAction icon={Pencil} text="Edit" label={`Edit credentials of ${c.storeName}`} onClick={() => editing.open(c)} />
          <RowAction icon={Eye} text="Decrypt" label={`Decrypt credentials of ${c.storeName}`} onClick={() => setRevealing(c)} />
          {c.credentialType === 'Monetra' && (
            <RowAction
              icon={FlaskConical}
              text="Test"
              label={`Test credentials of ${c.storeName}`}
              loading={testing === c.id}
              onClick={() => void test(c)}
            />
          )}
        </div>
      ),
    },
  ];
  return (
    <ResourcePanel
      id="credentials"
      title="Payment Credentials"
      addLabel="Add Credentials"
      onAdd={() => editing.open()}
      query={credentials}
      errorTitle="Failed to load credentials"
      empty={{
        icon: KeyRound,
        title: 'No payment credentials',
        description: "Add a store's card-processor credentials; they are stored encrypted.",
      }}
      overlays={
        <>
          {editing.isOpen && <CredentialDialog cred={editing.target} onClose={editing.close} onSaved={editing.saved} />}
          {revealing && <RevealDialog cred={revealing} onClose={() => setRevealing(null)} />}
        </>
      }
    >
      <DataTable label="Payment credentials" rows={credentials.data?.items ?? []} columns={columns} rowKey={(c) => c.id} />
    </ResourcePanel>
  );
}
