import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { E164_PATTERN } from '@portal/contracts';

/**
 * A phone number in E.164 with libphonenumber-js (issue 26 §7): international forms, or the national form of the
 * US ("(515) 555-0100"); undefined when it is not a possible number of its country. Installed into the contracts'
 * phone schemas by app.ts (setPhoneNormalizer), so every API body with a phone is normalised as it is parsed.
 */
export function toE164(text: string): string | undefined {
  const parsed = parsePhoneNumberFromString(text.trim(), 'US');
  if (!parsed || !parsed.isPossible()) return undefined;
  return E164_PATTERN.test(parsed.number) ? parsed.number : undefined;
}
