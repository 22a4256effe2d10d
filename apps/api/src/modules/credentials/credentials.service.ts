import { z } from 'zod';
import {
  PERMISSIONS,
  ADMIN_ORG_MESSAGES,
  type PaymentCredential,
  type createCredentialBodySchema,
  type updateCredentialBodySchema,
} from '@portal/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { uniqueViolation } from '../../db/unique-violation';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthenticatedError, UnprocessableError } from '../../http/errors';
import { recordAudit } from '../audit/audit.service';
import { confirmCurrentPassword } from '../auth/auth.service';
import { auditActor, can, reach, type Actor } from '../access/access.service';
import * as repo from './credentials.repository';
import type { CredentialFields } from './credentials.repository';

/** Who manages payment credentials (spec 002 §6), at the stores they hold it (ARCHITECTURE §11). */
export const CREDENTIAL_CODES = [PERMISSIONS.adminCredentialsManage] as const;
const storeInScope = (db: Db, actor: Actor, id: number) => can(db, actor, CREDENTIAL_CODES, { type: 'store', id });
const storesInScope = (db: Db, actor: Actor) => reach(db, actor, CREDENTIAL_CODES, 'store');
import { decryptPayload, encryptPayload, parseMonetraCredentials } from '../payments/payments.service';
import { mapMonetraResult } from '../payments/payments.service';
import { errorMessage, errorName } from '../../lib/errors';

type CreateCredential = z.output<typeof createCredentialBodySchema>;
type UpdateCredential = z.output<typeof updateCredentialBodySchema>;

const NOT_FOUND = () => new NotFoundError('Payment credential not found');
/** A JSON object: a decrypted credential payload, the gateway's answer. */
const jsonObject = z.record(z.string(), z.unknown());

/** The Credentials tab (spec 002 §2, §7 payment_credentials newest first): credentials of the caller's stores, never the secret. */
export async function listCredentials(db: Db, actor: Actor): Promise<{ items: PaymentCredential[] }> {
  return { items: await repo.findCredentials(db, storesInScope(db, actor)) };
}

async function getCredential(db: Db, id: number): Promise<PaymentCredential> {
  const row = await repo.findCredential(db, id);
  if (!row) throw NOT_FOUND();
  return row;
}

async function findInScope(db: Db, actor: Actor, id: number) {
  const row = await repo.findWithPayload(db, id, storesInScope(db, actor));
  if (!row) throw NOT_FOUND();
  return row;
}

const conflict = (e: unknown): never => {
  if (uniqueViolation(e)) {
    throw new ConflictError('This store already has credentials for this app, environment and type', 'credential_exists');
  }
  throw e;
};

/**
 * Adds a store's payment credential: the payload (the gateway's fields as a JSON object) is encrypted with
 * AES-256-GCM under config.paymentCredentialsKey (ARCHITECTURE §6). One per store × app × environment ×
 * type (409 credential_exists). Audited with the payload's field names only.
 */
export async function createCredential(db: Db, config: Config, actor: Actor, body: CreateCredential): Promise<PaymentCredential> {
  const id = await db
    .transaction(async (trx) => {
      if (!(await storeInScope(trx, actor, body.storeId)))
        throw new BadRequestError(ADMIN_ORG_MESSAGES.credentialRequired, [{ path: 'storeId', message: 'Unknown store' }]);
      const id = await repo.insertCredential(trx, {
        store_id: body.storeId,
        app_code: body.appCode,
        environment: body.environment,
        credential_type: body.credentialType,
        dek_secret_name: body.dekSecretName,
        encrypted_payload: encryptPayload(config.paymentCredentialsKey, JSON.stringify(body.payload)),
        created_by: actor.userId,
        updated_by: actor.userId,
      });
      await recordAudit(trx, auditActor(actor), {
        action: 'payment_credential.created',
        entityType: 'payment_credential',
        entityId: id,
        ip: actor.ip,
        details: {
          storeId: body.storeId,
          appCode: body.appCode,
          environment: body.environment,
          credentialType: body.credentialType,
          dekSecretName: body.dekSecretName,
          fields: Object.keys(body.payload),
        },
      });
      return id;
    })
    .catch(conflict);
  return getCredential(db, id);
}

/** Edits a credential of the caller's stores (else 404); a new payload is encrypted again. Audited without the secret. */
export async function updateCredential(
  db: Db,
  config: Config,
  actor: Actor,
  id: number,
  body: UpdateCredential,
): Promise<PaymentCredential> {
  await db
    .transaction(async (trx) => {
      await findInScope(trx, actor, id);
      if (body.storeId !== undefined && !(await storeInScope(trx, actor, body.storeId))) {
        throw new BadRequestError(ADMIN_ORG_MESSAGES.credentialRequired, [{ path: 'storeId', message: 'Unknown store' }]);
      }
      const patch: CredentialFields = { updated_by: actor.userId };
      if (body.storeId !== undefined) patch.store_id = body.storeId;
      if (body.appCode !== undefined) patch.app_code = body.appCode;
      if (body.environment !== undefined) patch.environment = body.environment;
      if (body.credentialType !== undefined) patch.credential_type = body.credentialType;
      if (body.dekSecretName !== undefined) patch.dek_secret_name = body.dekSecretName;
      if (body.payload !== undefined) patch.encrypted_payload = encryptPayload(config.paymentCredentialsKey, JSON.stringify(body.payload));
      await repo.updateCredential(trx, id, patch);
      const { payload, ...rest } = body;
      await recordAudit(trx, auditActor(actor), {
        action: 'payment_credential.updated',
        entityType: 'payment_credential',
        entityId: id,
        ip: actor.ip,
        details: { ...rest, ...(payload ? { fields: Object.keys(payload) } : {}) },
      });
    })
    .catch(conflict);
  return getCredential(db, id);
}

/**
 * Decrypts a credential for the Credentials tab's decrypt view (ARCHITECTURE §9): the caller's current
 * password is required (401 password_required without, 403 invalid_password when wrong) and every reveal
 * is written to the audit log (without the secret). A wrong password counts toward the account's sign-in
 * lockout, and an account gets at most 5 wrong ones in 15 minutes from all IPs (429; auth.service
 * confirmCurrentPassword). 422 decryption_failed when the key does not open it.
 */
export async function revealCredential(
  db: Db,
  config: Config,
  actor: Actor,
  id: number,
  currentPassword: string | undefined,
): Promise<{ payload: Record<string, unknown> }> {
  const cred = await findInScope(db, actor, id);
  if (!currentPassword) throw new UnauthenticatedError('Enter your current password to reveal the credential', 'password_required');
  if (!(await confirmCurrentPassword({ db, config }, { id: actor.userId, email: actor.email }, currentPassword, actor.ip))) {
    throw new ForbiddenError('The current password is not correct', 'invalid_password');
  }
  let payload: Record<string, unknown>;
  try {
    payload = jsonObject.parse(JSON.parse(decryptPayload(config.paymentCredentialsKey, cred.encryptedPayload)));
  } catch {
    throw new UnprocessableError(ADMIN_ORG_MESSAGES.decryptionFailed, 'decryption_failed');
  }
  await db.transaction(async (trx) => {
    await recordAudit(trx, auditActor(actor), {
      action: 'payment_credential.revealed',
      entityType: 'payment_credential',
      entityId: id,
      ip: actor.ip,
      details: { storeId: cred.storeId },
    });
  });
  return { payload };
}

/**
 * Tests a Monetra credential (spec 002 §7 test_monetra): a real request to the configured endpoint
 * (config.monetraUrl) with the decrypted credentials, Monetra's "chkpwd" action (checks the merchant user
 * and password, moves no money). Other types → 422 monetra_only with the spec's text. Never throws for
 * gateway failures: `{ success: false, message }` ('Test Successful' / 'Test Failed: …').
 */
export async function testCredential(db: Db, config: Config, actor: Actor, id: number): Promise<{ success: boolean; message: string }> {
  const cred = await findInScope(db, actor, id);
  if (cred.credentialType !== 'Monetra') throw new UnprocessableError(ADMIN_ORG_MESSAGES.testMonetraOnly, 'monetra_only');
  const failed = (why: string) => ({ success: false, message: `Test Failed: ${why}` });
  if (!config.monetraUrl) return failed('the payment gateway endpoint is not configured');
  let creds;
  try {
    creds = parseMonetraCredentials(decryptPayload(config.paymentCredentialsKey, cred.encryptedPayload));
  } catch (e) {
    return failed(
      errorMessage(e) === 'Decryption failed' ? ADMIN_ORG_MESSAGES.decryptionFailed : 'the credential needs username and password',
    );
  }
  let res: Response;
  try {
    res = await fetch(config.monetraUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
      },
      body: JSON.stringify({ action: 'chkpwd' }),
      signal: AbortSignal.timeout(config.monetraTimeoutMs),
    });
  } catch (e) {
    return failed(errorName(e) === 'TimeoutError' ? 'the payment gateway did not answer in time' : 'the payment gateway cannot be reached');
  }
  let body: Record<string, unknown> | undefined;
  try {
    const json: unknown = await res.json();
    const parsed = jsonObject.safeParse(json);
    body = parsed.success ? parsed.data : undefined;
  } catch {
    body = undefined;
  }
  if (res.ok && body && mapMonetraResult(body).status === 'approved') return { success: true, message: 'Test Successful' };
  const verbiage = body && typeof body.verbiage === 'string' ? body.verbiage : `the gateway answered HTTP ${res.status}`;
  return failed(verbiage);
}
