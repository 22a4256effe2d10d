import { ERROR_CODES, type ErrorCode, type FieldError } from '@portal/contracts';

/**
 * Typed errors that services throw; the error middleware maps each to RFC 9457 problem+json.
 * Handlers never build error bodies.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    readonly title: string,
    detail?: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? title);
  }
}
export class BadRequestError extends AppError {
  constructor(detail: string, errors?: FieldError[]) { super(400, ERROR_CODES.validation, 'Bad Request', detail, errors); }
}
export class UnauthenticatedError extends AppError {
  constructor(detail = 'Authentication required', code: string = ERROR_CODES.unauthenticated) { super(401, code, 'Unauthorized', detail); }
}
export class ForbiddenError extends AppError {
  constructor(detail = "You don't have permission to do this.") { super(403, ERROR_CODES.forbidden, 'Forbidden', detail); }
}
export class NotFoundError extends AppError {
  constructor(detail = 'Not found') { super(404, ERROR_CODES.notFound, 'Not Found', detail); }
}
export class ConflictError extends AppError {
  constructor(detail: string, code: string = ERROR_CODES.conflict) { super(409, code, 'Conflict', detail); }
}
export class UnprocessableError extends AppError {
  constructor(detail: string, code: string = ERROR_CODES.validation, errors?: FieldError[]) { super(422, code, 'Unprocessable Content', detail, errors); }
}
export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number, detail = 'Too many requests') {
    super(429, ERROR_CODES.rateLimited, 'Too many requests', detail, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
export class PaymentDeclinedError extends AppError {
  constructor(detail: string, readonly orderId?: number) { super(402, ERROR_CODES.paymentDeclined, 'Payment Failed', detail); }
}
