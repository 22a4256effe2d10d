import { useState } from 'react';
import { Eye, FlaskConical, KeyRound, Pencil, Plus } from 'lucide-react';
import {
  ADMIN_ORG_MESSAGES,
  APP_CODES,
  CREDENTIAL_ENVIRONMENTS,
  CREDENTIAL_TYPES,
  adminStorePageSchema,
  createCredentialBodySchema,
  credentialTestResultSchema,
  paymentCredentialListSchema,
  revealedCredentialSchema,
  type PaymentCredential,
} from '@portal/contracts';
import { api, toApiError, useApi } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge, EmptyState, Skeleton } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input, PasswordInput } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Table, Td, Th } from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';

const M = ADMIN_ORG_MESSAGES;

/**
 * The Credentials tab (spec 002 §2, §5, §8): payment credentials newest first (never the secret); an
 * add/edit dialog; a decrypt view that asks for the current password (audited on the server); and a test
 * for Monetra credentials ('Test Successful' / 'Test Failed').
 */
export function CredentialsTab() {
  const { data, error, isLoading, mutate } = useApi('/admin/payment-credentials', paymentCredentialListSchema);
  const [editing, setEditing] = useState<{ cred?: PaymentCredential } | null>(null);
  const [revealing, setRevealing] = useState<PaymentCredential | null>(null);
  const [testing, setTesting] = useState<number | null>(null);
  const test = async (c: PaymentCredential) => {
    if (c.credentialType !== 'Monetra') {
      notify({ title: M.testMonetraOnly, variant: 'destructive' });
      return;
    }
    setTesting(c.id);
    try {
      const r = credentialTestResultSchema.parse((await api.post(`/admin/payment-credentials/${c.id}/test`)).data);
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
  return (
    <section aria-labelledby="credentials-title" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="credentials-title" className="text-lg font-semibold text-stone-900">
          Payment Credentials
        </h2>
        <Button onClick={() => setEditing({})}>
          <Plus className="h-4 w-4" aria-hidden />
          Add Credentials
        </Button>
      </div>
      {error ? (
        <EmptyState
          title="Failed to load credentials"
          description={error.message}
          action={
            <Button variant="outline" onClick={() => mutate()}>
              Try again
            </Button>
          }
        />
      ) : isLoading ? (
        <Skeleton className="h-24 w-full" />
      ) : !data?.items.length ? (
        <EmptyState
          icon={<KeyRound className="h-8 w-8" />}
          title="No payment credentials"
          description="Add a store's card-processor credentials; they are stored encrypted."
        />
      ) : (
        <Table aria-label="Payment credentials">
          <thead>
            <tr>
              <Th>Store</Th>
              <Th>App</Th>
              <Th>Environment</Th>
              <Th>Type</Th>
              <Th>Secret name</Th>
              <Th>Updated</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((c) => (
              <tr key={c.id}>
                <Td className="font-medium">
                  {c.storeName} <span className="text-xs text-stone-500">#{c.storeId}</span>
                </Td>
                <Td>{c.appCode}</Td>
                <Td>{c.environment === 'prod' ? <Badge variant="warning">prod</Badge> : <Badge>test</Badge>}</Td>
                <Td>{c.credentialType}</Td>
                <Td className="font-mono text-xs">{c.dekSecretName}</Td>
                <Td className="text-xs text-stone-600">
                  {formatDateTime(c.updatedAt)}
                  {c.updatedBy ? ` · ${c.updatedBy}` : ''}
                </Td>
                <Td>
                  <div className="flex flex-wrap gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setEditing({ cred: c })}
                      aria-label={`Edit credentials of ${c.storeName}`}
                    >
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
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
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
    </section>
  );
}

type Draft = {
  storeId: string;
  appCode: string;
  environment: string;
  credentialType: string;
  dekSecretName: string;
  username: string;
  password: string;
  json: string;
};

function CredentialDialog({ cred, onClose, onSaved }: { cred?: PaymentCredential; onClose: () => void; onSaved: () => void }) {
  const [d, setD] = useState<Draft>({
    storeId: cred ? String(cred.storeId) : '',
    appCode: cred?.appCode ?? 'BCC',
    environment: cred?.environment ?? 'test',
    credentialType: cred?.credentialType ?? 'Monetra',
    dekSecretName: cred?.dekSecretName ?? '',
    username: '',
    password: '',
    json: '',
  });
  const [storeSearch, setStoreSearch] = useState('');
  const q = useDebouncedValue(storeSearch.trim(), 300);
  const stores = useApi(`/admin/stores?pageSize=20${q ? `&search=${encodeURIComponent(q)}` : ''}`, adminStorePageSchema, {
    keepPreviousData: true,
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setD((x) => ({ ...x, [k]: e.target.value }));
  const monetra = d.credentialType === 'Monetra';

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setProblem(null);
    let payload: Record<string, unknown> | undefined;
    if (monetra) payload = d.username || d.password ? { username: d.username, password: d.password } : undefined;
    else if (d.json.trim()) {
      try {
        payload = JSON.parse(d.json) as Record<string, unknown>;
      } catch {
        setProblem('The payload must be a JSON object, e.g. {"key": "sk_live_…"}');
        return;
      }
    }
    const body = {
      storeId: d.storeId ? Number(d.storeId) : undefined,
      appCode: d.appCode,
      environment: d.environment,
      credentialType: d.credentialType,
      dekSecretName: d.dekSecretName,
      ...(payload ? { payload } : {}),
    };
    const schema = cred ? createCredentialBodySchema.partial() : createCredentialBodySchema;
    const parsed = schema.safeParse(body);
    if (!parsed.success || (monetra && payload && (!d.username || !d.password))) {
      setProblem(M.credentialRequired);
      return;
    }
    setBusy(true);
    try {
      if (cred) await api.patch(`/admin/payment-credentials/${cred.id}`, parsed.data);
      else await api.post('/admin/payment-credentials', parsed.data);
      notify({
        title: cred ? 'Credentials updated' : 'Credentials added',
        description: 'Stored encrypted (AES-256-GCM).',
        variant: 'success',
      });
      onSaved();
    } catch (err) {
      const a = toApiError(err);
      setProblem(a.message);
      notify({ title: a.status === 0 ? 'Encryption Error' : 'Failed to add credentials', description: a.message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={cred ? 'Edit Credentials' : 'Add Credentials'}
      description={
        cred ? 'Leave the secret fields empty to keep the stored ones.' : 'The gateway fields are encrypted before they are stored.'
      }
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="credential-form" loading={busy}>
            {busy ? 'Saving...' : 'Save'}
          </Button>
        </>
      }
    >
      <form id="credential-form" onSubmit={save} noValidate className="grid gap-4 sm:grid-cols-2">
        {problem && (
          <p role="alert" className="rounded-md bg-red-50 p-2 text-sm text-red-700 sm:col-span-2">
            {problem}
          </p>
        )}
        <Field id="cred-store-search" label="Find store" className="sm:col-span-2">
          <Input
            id="cred-store-search"
            type="search"
            placeholder="Name, city or number"
            value={storeSearch}
            onChange={(e) => setStoreSearch(e.target.value)}
          />
        </Field>
        <Field id="cred-store" label="Store *" className="sm:col-span-2">
          <Select id="cred-store" value={d.storeId} onChange={set('storeId')}>
            <option value="">Select a store</option>
            {cred && !stores.data?.items.some((s) => s.id === cred.storeId) && (
              <option value={cred.storeId}>
                {cred.storeName} (#{cred.storeId})
              </option>
            )}
            {stores.data?.items.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} (#{s.id})
              </option>
            ))}
          </Select>
        </Field>
        <Field id="cred-app" label="App *">
          <Select id="cred-app" value={d.appCode} onChange={set('appCode')}>
            {APP_CODES.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </Select>
        </Field>
        <Field id="cred-env" label="Environment *">
          <Select id="cred-env" value={d.environment} onChange={set('environment')}>
            {CREDENTIAL_ENVIRONMENTS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </Select>
        </Field>
        <Field id="cred-type" label="Type *">
          <Select id="cred-type" value={d.credentialType} onChange={set('credentialType')}>
            {CREDENTIAL_TYPES.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </Select>
        </Field>
        <Field id="cred-dek" label="Secret name *">
          <Input
            {...describedBy('cred-dek')}
            value={d.dekSecretName}
            onChange={set('dekSecretName')}
            placeholder="portal-payment-credentials-v1"
          />
        </Field>
        {monetra ? (
          <>
            <Field id="cred-user" label={`Merchant username${cred ? '' : ' *'}`}>
              <Input id="cred-user" autoComplete="off" value={d.username} onChange={set('username')} />
            </Field>
            <Field id="cred-pass" label={`Merchant password${cred ? '' : ' *'}`}>
              <PasswordInput id="cred-pass" autoComplete="new-password" value={d.password} onChange={set('password')} />
            </Field>
          </>
        ) : (
          <Field id="cred-json" label={`Gateway fields (JSON)${cred ? '' : ' *'}`} className="sm:col-span-2">
            <textarea
              id="cred-json"
              rows={4}
              className="w-full rounded-md border border-stone-300 p-2 font-mono text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
              value={d.json}
              onChange={set('json')}
              placeholder='{"key": "sk_live_…"}'
            />
          </Field>
        )}
      </form>
    </Dialog>
  );
}

function RevealDialog({ cred, onClose }: { cred: PaymentCredential; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [payload, setPayload] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reveal = async (e: React.FormEvent) => {
    e.preventDefault();
    setProblem(null);
    setBusy(true);
    try {
      const r = revealedCredentialSchema.parse(
        (await api.post(`/admin/payment-credentials/${cred.id}/reveal`, { currentPassword: password })).data,
      );
      setPayload(JSON.stringify(r.payload, null, 2));
    } catch (err) {
      const a = toApiError(err);
      if (a.code === 'decryption_failed') setPayload(M.decryptionFailed);
      else
        setProblem(
          a.status === 403 ? 'The current password is not correct.' : a.status === 401 ? 'Enter your current password.' : a.message,
        );
    } finally {
      setBusy(false);
      setPassword('');
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title="Decrypt Credentials"
      description={`${cred.storeName} · ${cred.appCode} · ${cred.environment} · ${cred.credentialType}. Every decryption is written to the audit log.`}
      footer={
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      }
    >
      {payload === null ? (
        <form onSubmit={reveal} noValidate className="space-y-3">
          <Field id="reveal-password" label="Your current password" error={problem ?? undefined}>
            <PasswordInput
              {...describedBy('reveal-password', problem ?? undefined)}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <Button type="submit" loading={busy} disabled={!password}>
            {busy ? 'Decrypting...' : 'Decrypt'}
          </Button>
        </form>
      ) : (
        <pre aria-label="Decrypted payload" className="overflow-x-auto rounded-md bg-stone-900 p-3 text-xs text-stone-100">
          {payload}
        </pre>
      )}
    </Dialog>
  );
}
