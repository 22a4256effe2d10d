import { useState } from 'react';
import { KeyRound, Trash2 } from 'lucide-react';
import type { ApiKey } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { DataTable, RowAction, actionsHeader, type Column } from '@/components/admin/data-table';
import { ResourcePanel } from '@/components/admin/resource-panel';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge } from '@/components/ui/feedback';
import { notify } from '@/components/ui/toaster';
import { revokeApiKey, useApiKeys } from './api/api-keys';
import { CreateApiKeyDialog } from './components/create-api-key-dialog';
import { ShownOnceDialog } from './components/shown-once-dialog';

/**
 * The API Keys tab (issue 14 §2): keys of the caller's stores and boards with prefix, scopes and last use;
 * create (the whole key is shown once), revoke at once.
 */
export function ApiKeysTab() {
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  async function revoke(k: ApiKey) {
    try {
      await revokeApiKey(k.id);
      notify({ title: 'API key revoked', description: k.name, variant: 'success' });
      setRevoking(null);
      void keys.mutate();
    } catch (e) {
      notify({ title: 'Failed to revoke the key', description: toApiError(e).message, variant: 'destructive' });
    }
  }
  const columns: Column<ApiKey>[] = [
    { header: 'Name', field: 'name', sortKey: 'name', className: 'font-medium' },
    { header: 'Prefix', cell: (k) => <code>bcc_{k.prefix}_…</code> },
    { header: 'Scope', cell: (k) => (k.storeId ? `Store ${k.storeId}` : `Board ${k.boardId}`) },
    { header: 'Scopes', cell: (k) => k.scopes.join(', '), className: 'text-xs' },
    {
      header: 'Last used',
      cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'Never'),
      sortKey: 'lastUsedAt',
      sortValue: (k) => k.lastUsedAt,
    },
    {
      header: 'Status',
      cell: (k) => (k.revokedAt ? <Badge variant="destructive">Revoked</Badge> : <Badge variant="success">Active</Badge>),
    },
    {
      header: actionsHeader,
      cell: (k) => !k.revokedAt && <RowAction icon={Trash2} text="Revoke" label={`Revoke ${k.name}`} onClick={() => setRevoking(k)} />,
    },
  ];
  return (
    <ResourcePanel
      id="api-keys"
      title="API Keys"
      addLabel="Create API key"
      onAdd={() => setCreating(true)}
      query={keys}
      errorTitle="Failed to fetch API keys"
      empty={{ icon: KeyRound, title: 'No API keys yet', description: "Create a key for a store's warehouse system." }}
      overlays={
        <>
          {creating && (
            <CreateApiKeyDialog
              onClose={() => setCreating(false)}
              onCreated={(key) => {
                setCreating(false);
                setShown(key);
                void keys.mutate();
              }}
            />
          )}
          <ShownOnceDialog
            value={shown}
            onClose={() => setShown(null)}
            title="Copy your API key now"
            description="This is the only time the whole key is shown. Store it in the warehouse system's secret store."
            inputId="new-api-key"
            inputLabel="API key"
            copyable
          />
          <Dialog
            open={!!revoking}
            onOpenChange={(o) => {
              if (!o) setRevoking(null);
            }}
            title={`Revoke ${revoking?.name ?? ''}?`}
            description="Calls with this key are refused at once. This cannot be undone."
            footer={
              <>
                <Button variant="outline" onClick={() => setRevoking(null)}>
                  Cancel
                </Button>
                <Button variant="destructive" onClick={() => revoking && revoke(revoking)}>
                  Revoke
                </Button>
              </>
            }
          />
        </>
      }
    >
      <DataTable label="API keys" rows={keys.data?.items ?? []} columns={columns} rowKey={(k) => k.id} />
    </ResourcePanel>
  );
}
