import type { PasswordRecoveryBody } from '@portal/contracts';

/** POST /auth/password-recovery → 202 for any well-formed email (ARCHITECTURE §9); 429 when rate-limited. */
export async function requestPasswordRecovery(body: PasswordRecoveryBody): Promise<void> {
  // lib/api and the schema load on use (issue 15 §4: not with the sign-in page).
  const [{ api }, { passwordRecoveryBodySchema }] = await Promise.all([import('@/lib/api'), import('@/lib/schemas')]);
  await api.post('/auth/password-recovery', { json: passwordRecoveryBodySchema.parse(body) });
}
