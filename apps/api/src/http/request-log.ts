import type { RequestHandler } from 'express';
import pino from 'pino';
import type { Logger } from '../logger';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (X-Request-Id), set first thing by `requestLog`. */
    id: string | number | object;
    /** The request's logger: the app's, bound to the request (`req`, serialized when first used). */
    log: pino.Logger;
  }
  interface ServerResponse {
    /** An error to log with the request's completion line (as pino-http reads it). */
    err?: Error | undefined;
  }
  interface OutgoingMessage {
    /** The request's logger (the same as `req.log`). */
    log: pino.Logger;
  }
}

type Level = 'error' | 'warn' | 'info';

/** What requestLog needs: the request id, which requests are not logged, the request's serializer and each line's level. */
export interface RequestLogOptions {
  genReqId(req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]): string;
  /** Requests whose completion is not logged (health checks, metrics scrapes); errors still are. */
  ignore(req: Parameters<RequestHandler>[0]): boolean;
  /** Applied to pino's serialized request (method, url, query, params, headers, remoteAddress, remotePort). */
  reqSerializer(req: pino.SerializedRequest): unknown;
  level(req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1], err?: Error): Level;
}

/**
 * The request log (what pino-http did, at a fraction of its per-request cost): each request gets an id
 * (`req.id`) and a logger bound to it (`req.log`, `res.log`: a child of `logger` with the serialized request
 * as `req`), made only when something logs — a handler's line, or the completion line: `{ res, responseTime }`
 * 'request completed' (or 'request aborted'), or `{ res, err, responseTime }` 'request errored' for an error
 * or a 5xx, at `level(req, res, err)` and only when that level is enabled. Serializers: pino's standard
 * req (then `reqSerializer`), res and err; the logger's redaction applies.
 */
export function requestLog(logger: Logger, opts: RequestLogOptions): RequestHandler {
  const { stdSerializers } = pino;
  const base = logger.child(
    {},
    {
      serializers: {
        req: stdSerializers.wrapRequestSerializer(opts.reqSerializer as (r: pino.SerializedRequest) => pino.SerializedRequest),
        res: stdSerializers.res,
        err: stdSerializers.err,
      },
    },
  );
  return (req, res, next) => {
    req.id = opts.genReqId(req, res);
    let bound: pino.Logger | undefined;
    const log = () => (bound ??= base.child({ req }));
    Object.defineProperty(req, 'log', { get: log, configurable: true });
    Object.defineProperty(res, 'log', { get: log, configurable: true });
    const start = Date.now();
    const logCompletion = !opts.ignore(req);
    const done = (err?: Error) => {
      res.removeListener('close', done);
      res.removeListener('finish', done);
      res.removeListener('error', done);
      const failure = err ?? res.err;
      const level = opts.level(req, res, failure);
      if (!logCompletion && !failure) return;
      if (!base.isLevelEnabled(level)) return;
      const responseTime = Date.now() - start;
      if (failure || res.statusCode >= 500) {
        const error = failure ?? new Error(`failed with status code ${res.statusCode}`);
        log()[level]({ res, err: error, responseTime }, 'request errored');
        return;
      }
      log()[level]({ res, responseTime }, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
    };
    if (logCompletion) {
      res.on('close', done);
      res.on('finish', done);
    }
    res.on('error', done);
    next();
  };
}
