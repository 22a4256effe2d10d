/**
 * The typed errors services throw (one file each under errors/, with its status and default code); the
 * error middleware maps each to RFC 9457 problem+json. Import them from here.
 */
export { AppError } from './errors/app-error';
export { BadRequestError } from './errors/bad-request';
export { UnauthenticatedError } from './errors/unauthenticated';
export { PaymentDeclinedError } from './errors/payment-declined';
export { ForbiddenError } from './errors/forbidden';
export { NotFoundError } from './errors/not-found';
export { ConflictError } from './errors/conflict';
export { GoneError } from './errors/gone';
export { PayloadTooLargeError } from './errors/payload-too-large';
export { UnsupportedMediaTypeError } from './errors/unsupported-media-type';
export { UnprocessableError } from './errors/unprocessable';
export { TooManyRequestsError } from './errors/too-many-requests';
export { InternalError } from './errors/internal';
export { BadGatewayError } from './errors/bad-gateway';
export { ServiceUnavailableError } from './errors/service-unavailable';
