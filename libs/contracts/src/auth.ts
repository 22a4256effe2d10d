import { z } from 'zod';

/** Validation messages of spec 000 §5, verbatim. */
export const AUTH_MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be at least 8 characters',
  passwordUpper: 'Password must contain at least one uppercase letter',
  passwordLower: 'Password must contain at least one lowercase letter',
  passwordNumber: 'Password must contain at least one number',
  passwordSpecial: 'Password must contain at least one special character',
  passwordsDontMatch: "Passwords don't match",
  currentPasswordRequired: 'Current password is required',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  invalidCredentials: 'Invalid email or password.',
  deactivated: 'Your account has been deactivated. Please contact support for assistance.',
  currentPasswordIncorrect: 'Your current password is incorrect.',
  commonPassword: 'This password is too common. Please choose a less predictable one.',
  tooManyRequests: 'Too many requests',
  resetLinkInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  sessionExpired: 'Your session has expired. Please sign in again.',
} as const;

/** Stable problem `code`s of identity refusals beyond the generic ones in ERROR_CODES. */
export const AUTH_ERROR_CODES = {
  resetTokenInvalid: 'reset_token_invalid',
  currentPasswordIncorrect: 'current_password_incorrect',
  commonPassword: 'common_password',
  sessionInvalid: 'session_invalid',
} as const;

/** The live checklist of the reset and change-password forms (spec 000 §2), in order. */
export const PASSWORD_CHECKLIST = [
  { label: 'At least 8 characters', test: (p: string) => p.length >= 8 },
  { label: 'One uppercase letter', test: (p: string) => /[A-Z]/.test(p) },
  { label: 'One lowercase letter', test: (p: string) => /[a-z]/.test(p) },
  { label: 'One number', test: (p: string) => /[0-9]/.test(p) },
  { label: 'One special character', test: (p: string) => /[^A-Za-z0-9]/.test(p) },
] as const;

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email(AUTH_MESSAGES.invalidEmail));

/** New password rules (reset and change), spec 000 §5; at most 72 bytes because of bcrypt. */
export const newPasswordSchema = z
  .string()
  .min(8, AUTH_MESSAGES.passwordMin)
  .max(72, 'Password must be at most 72 characters')
  .regex(/[A-Z]/, AUTH_MESSAGES.passwordUpper)
  .regex(/[a-z]/, AUTH_MESSAGES.passwordLower)
  .regex(/[0-9]/, AUTH_MESSAGES.passwordNumber)
  .regex(/[^A-Za-z0-9]/, AUTH_MESSAGES.passwordSpecial);

export const loginBodySchema = z.strictObject({
  email: emailSchema,
  password: z.string().min(1, AUTH_MESSAGES.passwordRequired).max(200),
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
