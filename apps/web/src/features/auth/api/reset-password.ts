import { passwordResetBodySchema, type PasswordResetBody } from '@portal/contracts';
import { api } from '../../../lib/api';

/** POST /auth/password-reset → 204; the mailed one-time token sets the new password and ends every session. */
export async function resetPassword(body: PasswordResetBody): Promise<void> {
  await api.post('/auth/password-reset', passwordResetBodySchema.parse(body));
}
