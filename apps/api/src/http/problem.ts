import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { PROBLEM_CODES, type Problem } from '@portal/contracts';
import {
  AppError,
  BadRequestError,
  ConflictError,
  InternalError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
} from './errors';
import { DB_RETRY_AFTER_SECONDS, isConnectionLost } from '../db/connection-errors';
import { errorMessage } from '../lib/errors';

const TYPE_BASE = 'https://portal.local/problems/';

/** Sends an RFC 9457 problem+json body. */
export function sendProblem(res: Response, problem: Problem, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
}

/** Zod issues → [{ path, message }] with dotted paths. */
export function fieldErrors(err: ZodError) {
  return err.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** 404 problem for any unknown API route. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(res, problemOf(new NotFoundError(`No route for ${req.method} ${req.originalUrl.split('?')[0]}`), String(req.id ?? '')));
};

type RawError = { type?: string; status?: number; code?: string; constraint?: string };
/** PostgreSQL SQLSTATEs of input the database refuses (FK, CHECK, bad text/number/date, NUL in text or JSON, too long). */
const REFUSED_INPUT_SQLSTATES = new Set(['23503', '23514', '22P02', '22003', '22001', '22007', '22008', '22021', '22P05']);

/**
 * What errors that are not AppErrors answer as, first match wins: ZodError, body-parser failures, other
 * client errors while reading the request, PostgreSQL violations and a lost database connection.
 * Anything unmatched is a 500.
 */
const KNOWN_ERRORS: { test: (err: unknown, e: RawError) => boolean; answer: (err: unknown, e: RawError, req: Request) => AppError }[] = [
  {
    test: (err) => err instanceof ZodError,
    answer: (err) => {
      const errors = err instanceof ZodError ? fieldErrors(err) : [];
      return new BadRequestError(errors[0]?.message ?? 'Invalid input', errors);
    },
  },
  {
    test: (_err, e) => e.type === 'entity.parse.failed',
    answer: () => new BadRequestError('The request body is not valid JSON.', undefined, PROBLEM_CODES.malformedJson),
  },
  {
    test: (_err, e) => e.type === 'entity.too.large',
    answer: () => new PayloadTooLargeError('The request body is too large.', PROBLEM_CODES.payloadTooLarge, 'Content Too Large'),
  },
  {
    test: (_err, e) => e.status === 415 || e.type === 'encoding.unsupported' || e.type === 'charset.unsupported',
    answer: () => new UnsupportedMediaTypeError('The request body has an encoding or character set this API does not take.'),
  },
  {
    // Every other client error raised while reading the request (bad percent-encoding in a path, a body
    // that is not the gzip it claims, an aborted upload): 400 malformed_request (one status per code), never a 500.
    test: (err, e) => err instanceof URIError || Boolean(e.status && e.status >= 400 && e.status < 500),
    answer: () =>
      new BadRequestError('The request could not be read (malformed encoding or body).', undefined, PROBLEM_CODES.malformedRequest),
  },
  { test: (_err, e) => e.code === '23505', answer: () => new ConflictError('This record already exists.') },
  {
    test: (_err, e) => REFUSED_INPUT_SQLSTATES.has(String(e.code)),
    answer: (_err, e, req) => {
      req.log?.warn({ constraint: e.constraint, pgCode: e.code }, 'database refused input');
      return new BadRequestError('The data was refused by a database rule.');
    },
  },
  {
    test: (err) => isConnectionLost(err),
    answer: (err, e, req) => {
      req.log?.error({ err: { message: errorMessage(err), code: e.code } }, 'database unavailable');
      return new ServiceUnavailableError(
        'The service is briefly unavailable. Please try again in a few seconds.',
        PROBLEM_CODES.serviceUnavailable,
        DB_RETRY_AFTER_SECONDS,
      );
    },
  },
];

/** The problem+json body and headers of a typed error. */
function problemOf(err: AppError, requestId: string): Problem {
  return {
    ...err.extensions,
    type: TYPE_BASE + err.code,
    title: err.title,
    status: err.status,
    code: err.code,
    detail: err.message,
    requestId,
    ...(err.errors ? { errors: err.errors } : {}),
  };
}

/**
 * The one error middleware: typed errors answer as themselves, known others through KNOWN_ERRORS;
 * anything else is a 500 that carries only the request id (logged with the stack).
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const requestId = String(req.id ?? '');
  if (res.headersSent) return res.end();
  let known: AppError | undefined = err instanceof AppError ? err : undefined;
  if (!known) {
    const e = (err ?? {}) as RawError;
    known = KNOWN_ERRORS.find((k) => k.test(err, e))?.answer(err, e, req);
  }
  if (known) return sendProblem(res, problemOf(known, requestId), known.headers);
  req.log?.error({ err }, 'unhandled error');
  return sendProblem(res, problemOf(new InternalError(`Something went wrong. Quote request id ${requestId} to support.`), requestId));
};
