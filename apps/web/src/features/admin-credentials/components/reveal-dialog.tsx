import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ADMIN_ORG_MESSAGES as M, revealCredentialBodySchema, type PaymentCredential } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, describedBy } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/input';
import { revealCredential } from '../api/credentials';

type RevealForm = z.input<typeof revealCredentialBodySchema>;

/**
 * Decrypt a credential (spec 002 §8): asks for the caller's current password (the server checks it and
 * writes the audit entry), then shows the payload; the password field is emptied after every try.
 */
export function RevealDialog({ cred, onClose }: { cred: PaymentCredential; onClose: () => void }) {
  const [payload, setPayload] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RevealForm, unknown, z.output<typeof revealCredentialBodySchema>>({
    resolver: zodResolver(revealCredentialBodySchema),
    defaultValues: { currentPassword: '' },
    reValidateMode: 'onSubmit',
  });
  const problem = errors.currentPassword?.message;
  const reveal = handleSubmit(async ({ currentPassword }) => {
    try {
      const r = await revealCredential(cred.id, currentPassword ?? '');
      setPayload(JSON.stringify(r.payload, null, 2));
    } catch (err) {
      const a = toApiError(err);
      if (a.code === 'decryption_failed') setPayload(M.decryptionFailed);
      else
        setError('currentPassword', {
          message:
            a.status === 403 ? 'The current password is not correct.' : a.status === 401 ? 'Enter your current password.' : a.message,
        });
    } finally {
      setValue('currentPassword', '');
    }
  });
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
          <Field id="reveal-password" label="Your current password" error={problem}>
            <PasswordInput {...describedBy('reveal-password', problem)} autoComplete="current-password" {...register('currentPassword')} />
          </Field>
          <Button type="submit" loading={isSubmitting} disabled={!watch('currentPassword')}>
            {isSubmitting ? 'Decrypting...' : 'Decrypt'}
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
