import { passwordRecoveryBodySchema, type PasswordRecoveryBody } from '@portal/contracts';
import { api } from '../../../lib/api';

/** POST /auth/password-recovery → 202 for any well-formed email (ARCHITECTURE §9); 429 when rate-limited. */
export async function requestPasswordRecovery(body: PasswordRecoveryBody): Promise<void> {
  await api.post('/auth/password-recovery', passwordRecoveryBodySchema.parse(body));
}
