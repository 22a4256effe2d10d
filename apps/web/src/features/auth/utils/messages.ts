import { AUTH_MESSAGES } from '@portal/contracts';
import { ApiError } from '@/lib/api-error';
import { SessionError } from '@/lib/session';

/** A toast's text. */
export interface ToastText {
  title: string;
  description: string;
}

const UNEXPECTED = 'An unexpected error occurred. Please try again.';
const serverTrouble = (e: ApiError) => e.status === 0 || e.status >= 500;

/** Login failure (spec 000 §8): 'Login Failed' with the server message, else the generic texts. */
export function loginFailure(error: unknown): ToastText {
  if (error instanceof SessionError) return { title: 'Login Failed', description: error.message };
  if (error instanceof ApiError) {
    if (serverTrouble(error)) return { title: 'Login Failed', description: UNEXPECTED };
    return { title: 'Login Failed', description: error.problem.detail ?? AUTH_MESSAGES.invalidCredentials };
  }
  return { title: 'Login Failed', description: UNEXPECTED };
}

/** Forgot-password failure (spec 000 §8): rate limit, unknown or disabled account, or the message. */
export function recoveryFailure(error: unknown): ToastText {
  const message = error instanceof Error ? error.message : '';
  if (error instanceof ApiError && error.status === 429) {
    return { title: AUTH_MESSAGES.tooManyRequests, description: 'Please wait a few minutes before requesting another password reset.' };
  }
  if (/User not found|No account exists/i.test(message)) {
    return {
      title: 'Email not found',
      description: 'No account exists with this email address. Please check your email or sign up for a new account.',
    };
  }
  if (/disabled/i.test(message)) {
    return { title: 'Account disabled', description: 'This account has been disabled. Please contact support for assistance.' };
  }
  return { title: 'Error', description: message || 'Failed to send reset email. Please try again.' };
}

/** Reset failure (spec 000 §8): 'Password reset failed' with the server message. */
export function resetFailure(error: unknown): ToastText {
  if (error instanceof ApiError && !serverTrouble(error) && error.problem.detail) {
    return { title: 'Password reset failed', description: error.problem.detail };
  }
  return { title: 'Password reset failed', description: 'Something went wrong. Please try again.' };
}
