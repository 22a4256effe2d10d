import type { MailMessage } from '../../context';

/** The password reset mail (ARCHITECTURE §7): a one-time link, valid for one hour. */
export function passwordResetMail(to: string, link: string): MailMessage {
  return {
    to,
    template: 'password_reset',
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of your ordering portal account.',
      '',
      'Choose a new password here (the link works once, for one hour):',
      link,
      '',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

/** The notice sent after a password was reset or changed (spec 000 §7 send-password-update-notification). */
export function passwordChangedMail(to: string, signInUrl: string): MailMessage {
  return {
    to,
    template: 'password_changed',
    subject: 'Your password was changed',
    text: [
      'The password of your ordering portal account was just changed, and every other session was signed out.',
      '',
      `Sign in with the new password at ${signInUrl}`,
      '',
      'If this was not you, reset your password at once with "Forgot Password?" and contact support.',
    ].join('\n'),
  };
}
