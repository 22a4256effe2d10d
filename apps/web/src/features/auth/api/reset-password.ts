import type { PasswordResetBody } from '@portal/contracts';

/** POST /auth/password-reset → 204; the mailed one-time token sets the new password and ends every session. */
export async function resetPassword(body: PasswordResetBody): Promise<void> {
  // lib/api and the schema load on use (issue 15 §4: not with the sign-in page).
  const [{ api }, { passwordResetBodySchema }] = await Promise.all([import('@/lib/api'), import('@/lib/schemas')]);
  await api.post('/auth/password-reset', { json: passwordResetBodySchema.parse(body) });
}
