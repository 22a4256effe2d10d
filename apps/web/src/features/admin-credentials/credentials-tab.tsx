import { useState } from 'react';
import { Eye, FlaskConical, KeyRound, Pencil, Plus } from 'lucide-react';
import { ADMIN_ORG_MESSAGES, type PaymentCredential } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { DataTable, actionsHeader, type Column } from '@/components/admin/data-table';
import { ResourcePanel } from '@/components/admin/resource-panel';
import { Button } from '@/components/ui/button';
import { Badge, EmptyState } from '@/components/ui/feedback';
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
  const { data, error, isLoading, mutate } = usePaymentCredentials();
  const [editing, setEditing] = useState<{ cred?: PaymentCredential } | null>(null);
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
          <Button variant="ghost" size="sm" onClick={() => setEditing({ cred: c })} aria-label={`Edit credentials of ${c.storeName}`}>
            <Pencil className="h-4 w-4" aria-hidden />
            Edit
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setRevealing(c)} aria-label={`Decrypt credentials of ${c.storeName}`}>
            <Eye className="h-4 w-4" aria-hidden />
            Decrypt
          </Button>
          {c.credentialType === 'Monetra' && (
            <Button
              variant="ghost"
              size="sm"
              loading={testing === c.id}
              onClick={() => void test(c)}
              aria-label={`Test credentials of ${c.storeName}`}
            >
              <FlaskConical className="h-4 w-4" aria-hidden />
              Test
            </Button>
          )}
        </div>
      ),
    },
  ];
  return (
    <ResourcePanel
      id="credentials"
      title="Payment Credentials"
      actions={
        <Button onClick={() => setEditing({})}>
          <Plus className="h-4 w-4" aria-hidden />
          Add Credentials
        </Button>
      }
      error={error}
      errorTitle="Failed to load credentials"
      onRetry={() => void mutate()}
      loading={isLoading}
      isEmpty={!data?.items.length}
      empty={
        <EmptyState
          icon={<KeyRound className="h-8 w-8" />}
          title="No payment credentials"
          description="Add a store's card-processor credentials; they are stored encrypted."
        />
      }
      overlays={
        <>
          {editing && (
            <CredentialDialog
              cred={editing.cred}
              onClose={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                void mutate();
              }}
            />
          )}
          {revealing && <RevealDialog cred={revealing} onClose={() => setRevealing(null)} />}
        </>
      }
    >
      <DataTable label="Payment credentials" rows={data?.items ?? []} columns={columns} rowKey={(c) => c.id} />
    </ResourcePanel>
  );
}
