import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { ERROR_CODES, type Problem } from '@portal/contracts';
import { AppError } from './errors';

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
  sendProblem(res, { type: TYPE_BASE + ERROR_CODES.notFound, title: 'Not Found', status: 404, code: ERROR_CODES.notFound, detail: `No route for ${req.method} ${req.originalUrl.split('?')[0]}`, requestId: String(req.id ?? '') });
};

/**
 * The one error middleware: typed errors, ZodError, malformed JSON and PostgreSQL constraint violations
 * become problem+json; anything else is a 500 that carries only the request id (logged with the stack).
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const requestId = String(req.id ?? '');
  if (res.headersSent) return res.end();
  if (err instanceof AppError) {
    return sendProblem(res, { type: TYPE_BASE + err.code, title: err.title, status: err.status, code: err.code, detail: err.message, requestId, ...(err.errors ? { errors: err.errors } : {}) }, err.headers);
  }
  if (err instanceof ZodError) {
    const errors = fieldErrors(err);
    return sendProblem(res, { type: TYPE_BASE + ERROR_CODES.validation, title: 'Bad Request', status: 400, code: ERROR_CODES.validation, detail: errors[0]?.message ?? 'Invalid input', errors, requestId });
  }
  const e = err as { type?: string; status?: number; code?: string; constraint?: string; detail?: string };
  if (e.type === 'entity.parse.failed') {
    return sendProblem(res, { type: TYPE_BASE + ERROR_CODES.malformedJson, title: 'Bad Request', status: 400, code: ERROR_CODES.malformedJson, detail: 'The request body is not valid JSON.', requestId });
  }
  if (e.type === 'entity.too.large') {
    return sendProblem(res, { type: TYPE_BASE + ERROR_CODES.validation, title: 'Content Too Large', status: 413, code: ERROR_CODES.validation, detail: 'The request body is too large.', requestId });
  }
  if (e.status && e.status >= 400 && e.status < 500 && e.type) {
    return sendProblem(res, { type: TYPE_BASE + ERROR_CODES.validation, title: 'Bad Request', status: e.status, code: ERROR_CODES.validation, detail: 'The request could not be read.', requestId });
  }
  if (e.code === '23505') {
    return sendProblem(res, { type: TYPE_BASE + ERROR_CODES.conflict, title: 'Conflict', status: 409, code: ERROR_CODES.conflict, detail: 'This record already exists.', requestId });
  }
  if (e.code === '23503' || e.code === '23514' || e.code === '22P02' || e.code === '22003') {
    req.log?.warn({ constraint: e.constraint, pgCode: e.code }, 'database refused input');
    return sendProblem(res, { type: TYPE_BASE + ERROR_CODES.validation, title: 'Bad Request', status: 400, code: ERROR_CODES.validation, detail: 'The data was refused by a database rule.', requestId });
  }
  req.log?.error({ err }, 'unhandled error');
  return sendProblem(res, { type: TYPE_BASE + ERROR_CODES.internal, title: 'Internal Server Error', status: 500, code: ERROR_CODES.internal, detail: `Something went wrong. Quote request id ${requestId} to support.`, requestId });
};
