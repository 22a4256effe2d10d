import { z } from 'zod';

import { AUTH_MESSAGES } from './auth-messages';
import { phoneSchema } from './phone';

export { AUTH_MESSAGES, PASSWORD_CHECKLIST } from './auth-messages';

/** An email address; missing or not text answers the same spec message, not zod's type message. */
export const emailSchema = z.string({ error: AUTH_MESSAGES.invalidEmail }).trim().toLowerCase().pipe(z.email(AUTH_MESSAGES.invalidEmail));

/** bcrypt reads only the first 72 bytes of a password (UTF-8): a longer one is refused, never truncated. */
export const PASSWORD_MAX_BYTES = 72;
/** The UTF-8 length of a string in bytes (browser and Node alike, without TextEncoder). */
export const utf8Length = (s: string) => {
  let bytes = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; // a lone surrogate encodes as U+FFFD, 3 bytes
  }
  return bytes;
};

/**
 * New password rules, spec 000 §5, for every place a password is set (reset, change, invitation
 * acceptance): at most 72 bytes in UTF-8 because bcrypt ignores the rest.
 */
export const newPasswordSchema = z
  .string()
  .min(8, AUTH_MESSAGES.passwordMin)
  .max(PASSWORD_MAX_BYTES, AUTH_MESSAGES.passwordTooLong)
  .refine((p) => utf8Length(p) <= PASSWORD_MAX_BYTES, AUTH_MESSAGES.passwordTooLong)
  .regex(/[A-Z]/, AUTH_MESSAGES.passwordUpper)
  .regex(/[a-z]/, AUTH_MESSAGES.passwordLower)
  .regex(/[0-9]/, AUTH_MESSAGES.passwordNumber)
  .regex(/[^A-Za-z0-9]/, AUTH_MESSAGES.passwordSpecial);

/**
 * POST /auth/login (spec 000 §5, ARCHITECTURE §5): `{ email, password }` or `{ phone, password }`, exactly one
 * identifier (neither or both: 400 with AUTH_MESSAGES.identifierRequired). The phone is answered in E.164
 * (a US national form such as "(515) 555-0100" is accepted).
 */
export const loginBodySchema = z
  .strictObject({
    email: emailSchema.optional(),
    phone: phoneSchema.optional(),
    password: z.string({ error: AUTH_MESSAGES.passwordRequired }).min(1, AUTH_MESSAGES.passwordRequired).max(200),
  })
  .refine((b) => (b.email === undefined) !== (b.phone === undefined), {
    message: AUTH_MESSAGES.identifierRequired,
    path: ['email'],
    // Checked on the raw body even when another field failed: an empty form names both fields.
    when: ({ value }) => typeof value === 'object' && value !== null,
  });
export type LoginBody = z.infer<typeof loginBodySchema>;

export const passwordRecoveryBodySchema = z.strictObject({ email: emailSchema });
export type PasswordRecoveryBody = z.infer<typeof passwordRecoveryBodySchema>;

export const passwordResetBodySchema = z
  .strictObject({ token: z.string().min(16).max(200), password: newPasswordSchema, confirmPassword: z.string() })
  .refine((b) => b.password === b.confirmPassword, { message: AUTH_MESSAGES.passwordsDontMatch, path: ['confirmPassword'] });
export type PasswordResetBody = z.infer<typeof passwordResetBodySchema>;

export const sessionUserSchema = z.object({ id: z.string(), email: z.string() });
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** Token response with RFC 6749 names (ARCHITECTURE §4); the refresh token travels only as a cookie. */
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  expires_at: z.number().int(),
  user: sessionUserSchema,
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
