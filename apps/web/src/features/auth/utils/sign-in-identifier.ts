import { AUTH_MESSAGES, PHONE_MESSAGES } from '@portal/contracts';

/** The sign-in form's values: one "Email or phone" field and the password. */
export interface SignInValues {
  login: string;
  password: string;
}

/** What the "Email or phone" field holds: an address (has an @) or a phone number (anything else). */
export type SignInIdentifier = { email: string } | { phone: string };

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * Reads the "Email or phone" field by its content (issue 26 §7): with an @ it is an email (trimmed, lower
 * case), else a phone number (sent as typed; the server normalises it to E.164). Answers the identifier or the
 * spec 000 §5 message of what is wrong (empty: identifierRequired; a bad address: invalidEmail; too few digits:
 * invalidPhone).
 */
export function readIdentifier(text: string): SignInIdentifier | { error: string } {
  const v = text.trim();
  if (!v) return { error: AUTH_MESSAGES.identifierRequired };
  if (v.includes('@')) return EMAIL.test(v) ? { email: v.toLowerCase() } : { error: AUTH_MESSAGES.invalidEmail };
  const digits = v.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15 && /^[+\d\s().-]+$/.test(v) ? { phone: v } : { error: PHONE_MESSAGES.invalidPhone };
}
