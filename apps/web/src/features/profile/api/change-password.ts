import { changePasswordBodySchema, type ChangePasswordBody } from '@portal/contracts';
import { api } from '@/lib/api';

/** POST /me/password { currentPassword, newPassword, confirmPassword }; a wrong current password is refused. */
export async function changePassword(body: ChangePasswordBody): Promise<void> {
  await api.post('/me/password', { json: changePasswordBodySchema.parse(body) });
}
