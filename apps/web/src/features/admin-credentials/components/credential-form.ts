import { z } from 'zod';
import { ADMIN_ORG_MESSAGES as M, createCredentialBodySchema, type PaymentCredential } from '@portal/contracts';

/** What the credential form holds: the select and text fields as typed (Monetra's username/password, or the other gateways' JSON). */
export const credentialDraftSchema = z.object({
  storeId: z.string(),
  appCode: z.string(),
  environment: z.string(),
  credentialType: z.string(),
  dekSecretName: z.string(),
  username: z.string(),
  password: z.string(),
  json: z.string(),
});
export type CredentialDraft = z.infer<typeof credentialDraftSchema>;

/** The form's first values: the credential's (secrets empty: left empty, the stored ones are kept) or BCC / test / Monetra. */
export const toCredentialDraft = (cred?: PaymentCredential): CredentialDraft => ({
  storeId: cred ? String(cred.storeId) : '',
  appCode: cred?.appCode ?? 'BCC',
  environment: cred?.environment ?? 'test',
  credentialType: cred?.credentialType ?? 'Monetra',
  dekSecretName: cred?.dekSecretName ?? '',
  username: '',
  password: '',
  json: '',
});

const JSON_PROBLEM = 'The payload must be a JSON object, e.g. {"key": "sk_live_…"}';

/**
 * The credential form's schema (spec 002 §5): the draft becomes the body that the contracts'
 * createCredentialBodySchema (on edit: every field optional) accepts. The payload is Monetra's
 * `{ username, password }` (both or neither) or the JSON object typed in; left empty on edit, the stored
 * secret is kept. A problem is one form-level message (`root`): the JSON one, else "Please fill in all required fields".
 */
export const credentialFormSchema = (editing: boolean) => {
  const bodySchema = editing ? createCredentialBodySchema.partial() : createCredentialBodySchema;
  return credentialDraftSchema.transform((d, ctx) => {
    const monetra = d.credentialType === 'Monetra';
    let payload: Record<string, unknown> | undefined;
    if (monetra) payload = d.username || d.password ? { username: d.username, password: d.password } : undefined;
    else if (d.json.trim()) {
      try {
        payload = JSON.parse(d.json) as Record<string, unknown>;
      } catch {
        ctx.addIssue({ code: 'custom', path: ['root'], message: JSON_PROBLEM });
        return z.NEVER;
      }
    }
    const parsed = bodySchema.safeParse({
      storeId: d.storeId ? Number(d.storeId) : undefined,
      appCode: d.appCode,
      environment: d.environment,
      credentialType: d.credentialType,
      dekSecretName: d.dekSecretName,
      ...(payload ? { payload } : {}),
    });
    if (!parsed.success || (monetra && payload && (!d.username || !d.password))) {
      ctx.addIssue({ code: 'custom', path: ['root'], message: M.credentialRequired });
      return z.NEVER;
    }
    return parsed.data;
  });
};
export type CredentialFormBody = z.output<ReturnType<typeof credentialFormSchema>>;
