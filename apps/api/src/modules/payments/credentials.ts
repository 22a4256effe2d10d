import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * Payment credentials at rest (ARCHITECTURE §6): AES-256-GCM with the 32-byte key from config
 * (PAYMENT_CREDENTIALS_KEY, 64 hex characters). Payload = base64(iv (12 bytes) | tag (16 bytes) | ciphertext).
 */
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The default data-encryption-key name recorded in payment_credentials.dek_secret_name. */
export const DEFAULT_DEK_NAME = 'portal-payment-credentials-v1';

function keyOf(keyHex: string): Buffer {
  if (!/^[0-9a-f]{64}$/i.test(keyHex)) throw new Error('The payment credentials key must be 64 hex characters');
  return Buffer.from(keyHex, 'hex');
}

/** Encrypts `plaintext` (UTF-8) → base64 payload. Throws on a malformed key. */
export function encryptPayload(keyHex: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(keyHex), iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
}

/** Decrypts a base64 payload → UTF-8 text. Throws 'Decryption failed' on a wrong key or tampered payload. */
export function decryptPayload(keyHex: string, payload: string): string {
  const buf = Buffer.from(payload, 'base64');
  if (buf.length < IV_BYTES + TAG_BYTES) throw new Error('Decryption failed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(keyHex), buf.subarray(0, IV_BYTES));
    decipher.setAuthTag(buf.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(buf.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('Decryption failed');
  }
}

/** Monetra's credential payload: the merchant user and password. */
export interface MonetraCredentials {
  username: string;
  password: string;
}

const monetraCredentialsSchema = z.object({ username: z.string().min(1), password: z.string() });

/** Parses a decrypted Monetra payload; throws when fields are missing. */
export function parseMonetraCredentials(text: string): MonetraCredentials {
  const v = monetraCredentialsSchema.safeParse(JSON.parse(text));
  if (!v.success) throw new Error('Monetra credentials need username and password');
  return v.data;
}
