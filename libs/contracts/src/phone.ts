import { z } from 'zod';
import { PHONE_MESSAGES } from './auth-messages';

export { PHONE_MESSAGES } from './auth-messages';

/** The E.164 form the database stores (CHECK users_phone_e164, user_profiles_phone_e164). */
export const E164_PATTERN = /^\+[1-9][0-9]{6,14}$/;

/** Text that can be a phone number: digits with + ( ) - . and spaces, 7 to 15 digits. */
const PHONE_TEXT = /^\+?[\d\s().-]+$/;
const looksLikePhone = (t: string) => PHONE_TEXT.test(t) && /^\D*(\d\D*){7,15}$/.test(t);

/**
 * The normaliser to E.164 the schemas use. The API installs libphonenumber-js's at start (apps/api/src/lib/phone.ts,
 * wired in app.ts) — the SPA never loads that library (about 25 KB gzipped on every signed-in page): without one,
 * a phone is only checked by its characters and digit count and kept as typed, and the server normalises it.
 */
let normalizer: ((text: string) => string | undefined) | undefined;
export function setPhoneNormalizer(fn: (text: string) => string | undefined): void {
  normalizer = fn;
}

/**
 * A phone number in E.164 ("+15155550100"): international forms, or a US national form ("(515) 555-0100",
 * "515-555-0100"), with the installed normaliser; undefined when the text is no possible phone number.
 */
export function normalizePhone(text: string): string | undefined {
  const t = text.trim();
  if (!looksLikePhone(t)) return undefined;
  return normalizer ? normalizer(t) : t;
}

/** A required phone number, answered in E.164 (400 PHONE_MESSAGES.invalidPhone otherwise). */
export const phoneSchema = z
  .string({ error: PHONE_MESSAGES.invalidPhone })
  .trim()
  .max(30, PHONE_MESSAGES.invalidPhone)
  .transform((text, ctx) => {
    const e164 = normalizePhone(text);
    if (!e164) ctx.addIssue({ code: 'custom', message: PHONE_MESSAGES.invalidPhone });
    return e164 ?? text;
  });

/** An optional profile phone: empty or absent → null, else E.164 (profile, Edit User, invitation acceptance). */
export const optionalPhoneSchema = z
  .string()
  .trim()
  .max(30, PHONE_MESSAGES.invalidPhone)
  .nullish()
  .transform((text, ctx) => {
    if (!text) return null;
    const e164 = normalizePhone(text);
    if (!e164) ctx.addIssue({ code: 'custom', message: PHONE_MESSAGES.invalidPhone });
    return e164 ?? null;
  });
