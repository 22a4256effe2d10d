import { ApiError } from '@/lib/api';
import { SessionError } from '@/lib/session';
import { loginFailure, recoveryFailure, resetFailure } from './messages';

const apiError = (status: number, detail?: string, code = 'x') =>
  new ApiError(status, { type: 'about:blank', title: 'T', status, code, detail });

describe('auth toasts (spec 000 §8)', () => {
  it('when login is refused, then Login Failed shows the server message, else the generic texts', () => {
    expect(loginFailure(apiError(401, 'Invalid email or password.'))).toEqual({
      title: 'Login Failed',
      description: 'Invalid email or password.',
    });
    expect(loginFailure(apiError(401))).toEqual({ title: 'Login Failed', description: 'Invalid email or password.' });
    expect(loginFailure(apiError(500, 'boom'))).toEqual({
      title: 'Login Failed',
      description: 'An unexpected error occurred. Please try again.',
    });
    expect(loginFailure(new SessionError('Unable to verify account status. Please try again.')).description).toBe(
      'Unable to verify account status. Please try again.',
    );
  });
  it('when recovery is rate-limited, unknown, disabled or fails otherwise, then the matching toast is chosen', () => {
    expect(recoveryFailure(apiError(429, 'Too many requests'))).toEqual({
      title: 'Too many requests',
      description: 'Please wait a few minutes before requesting another password reset.',
    });
    expect(recoveryFailure(apiError(404, 'User not found')).title).toBe('Email not found');
    expect(recoveryFailure(apiError(403, 'Account disabled by admin')).title).toBe('Account disabled');
    expect(recoveryFailure(new Error(''))).toEqual({ title: 'Error', description: 'Failed to send reset email. Please try again.' });
  });
  it('when the reset fails, then Password reset failed carries the server message or the generic text', () => {
    expect(
      resetFailure(apiError(400, 'This password reset link is invalid or has expired. Please request a new one.')).description,
    ).toMatch(/invalid or has expired/);
    expect(resetFailure(apiError(0))).toEqual({ title: 'Password reset failed', description: 'Something went wrong. Please try again.' });
  });
});
