/*
 * The sign-in texts and the password checklist, without zod: the web's first page imports these
 * constants, and keeping them apart from the schemas keeps zod out of its JavaScript.
 * Re-exported by ./auth, so `import { AUTH_MESSAGES } from '@portal/contracts'` is unchanged.
 */

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
  /** Sign-in without an email or phone, or with both (spec 000 §5). */
  identifierRequired: 'You must provide either an email or phone number and a password',
  deactivated: 'Your account has been deactivated. Please contact support for assistance.',
  currentPasswordIncorrect: 'Your current password is incorrect.',
  commonPassword: 'This password is too common. Please choose a less predictable one.',
  tooManyRequests: 'Too many requests',
  resetLinkInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  passwordTooLong: 'Password is too long: at most 72 bytes (letters with accents and symbols such as é or € count as 2 or 3).',
} as const;

/** Phone texts (spec 000 §5 sign-in; issue 26 §7). */
export const PHONE_MESSAGES = {
  invalidPhone: 'Please enter a valid phone number',
  phoneTaken: 'This phone number is already used by another account.',
} as const;

/** The live checklist of the reset and change-password forms (spec 000 §2), in order. */
export const PASSWORD_CHECKLIST = [
  { label: 'At least 8 characters', test: (p: string) => p.length >= 8 },
  { label: 'One uppercase letter', test: (p: string) => /[A-Z]/.test(p) },
  { label: 'One lowercase letter', test: (p: string) => /[a-z]/.test(p) },
  { label: 'One number', test: (p: string) => /[0-9]/.test(p) },
  { label: 'One special character', test: (p: string) => /[^A-Za-z0-9]/.test(p) },
] as const;
