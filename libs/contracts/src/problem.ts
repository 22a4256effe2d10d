import { z } from 'zod';

/**
 * RFC 9457 problem details, as every API error answers (ARCHITECTURE §5).
 * `code` is stable and what clients switch on; `title` and `detail` are for people.
 */
export const ERROR_CODES = {
  validation: 'validation_failed',
  malformedJson: 'malformed_json',
  unauthenticated: 'unauthenticated',
  invalidCredentials: 'invalid_credentials',
  accountDeactivated: 'account_deactivated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  rateLimited: 'rate_limited',
  paymentDeclined: 'payment_declined',
  paymentError: 'payment_error',
  checkoutSession: 'checkout_session_invalid',
  internal: 'internal_error',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  code: z.string(),
  requestId: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type Problem = z.infer<typeof problemSchema>;
export type FieldError = z.infer<typeof fieldErrorSchema>;
