import { updateProfileBodySchema, type UpdateProfileBody } from '@portal/contracts';
import { api } from '@/lib/api';

/** PATCH /me/profile { firstName, lastName, phone } (an empty phone is saved as null). */
export async function updateProfile(body: UpdateProfileBody): Promise<void> {
  await api.patch('/me/profile', { json: updateProfileBodySchema.parse(body) });
}
