import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';
import { PHONE_MESSAGES } from './auth-messages';

export { PHONE_MESSAGES } from './auth-messages';

/** The E.164 form the database stores (CHECK users_phone_e164, user_profiles_phone_e164). */
export const E164_PATTERN = /^\+[1-9][0-9]{6,14}$/;

/**
 * A phone number in E.164 ("+15155550100"), parsed with libphonenumber-js: international forms, or the
 * national form of `defaultCountry` (US: "(515) 555-0100", "515-555-0100"). Undefined when the text is not a
 * possible number of its country.
 */
export function normalizePhone(text: string, defaultCountry: 'US' = 'US'): string | undefined {
  const parsed = parsePhoneNumberFromString(text.trim(), defaultCountry);
  if (!parsed || !parsed.isPossible()) return undefined;
  return E164_PATTERN.test(parsed.number) ? parsed.number : undefined;
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
