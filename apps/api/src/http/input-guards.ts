import type { Request, RequestHandler } from 'express';
import ipaddr from 'ipaddr.js';
import { BadRequestError, UnsupportedMediaTypeError } from './errors';

/**
 * Request guards that run before any route: malformed input is refused with a
 * problem+json 4xx before it can reach a service or PostgreSQL, and the client address never depends
 * on an untrusted or malformed header.
 */

/** The message of a NUL refusal (PostgreSQL text cannot hold U+0000, so it is never valid input). */
export const NUL_MESSAGE = 'Text must not contain NUL (U+0000) characters.';

/** Where in a parsed value the first U+0000 is (a dotted path; '' for the value itself), else undefined. */
export function findNul(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const here = path ? `${path}.${k}` : k;
    if (k.includes('\u0000')) return here;
    const found = findNul(v, here, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Does a raw path carry a NUL, literally or percent-encoded (%00)? */
const pathHasNul = (rawPath: string) => rawPath.includes('\u0000') || /%00/i.test(rawPath);

/**
 * Refuses U+0000 anywhere in the path, the query (names and values) and the parsed JSON body with
 * 400 `validation_failed`, naming the field. Mount after the body parser.
 */
export const refuseNulBytes: RequestHandler = (req, _res, next) => {
  const rawPath = (req.originalUrl ?? req.url).split('?')[0];
  if (pathHasNul(rawPath)) return next(new BadRequestError(NUL_MESSAGE, [{ path: 'path', message: NUL_MESSAGE }]));
  const inQuery = findNul(req.query);
  if (inQuery !== undefined)
    return next(new BadRequestError(NUL_MESSAGE, [{ path: `query.${inQuery}`.replace(/\.$/, ''), message: NUL_MESSAGE }]));
  const inBody = findNul(req.body);
  if (inBody !== undefined) return next(new BadRequestError(NUL_MESSAGE, [{ path: inBody || 'body', message: NUL_MESSAGE }]));
  next();
};

/** Body types no API route takes (JSON sent as text/plain, HTML forms): refused rather than read as empty. */
const REFUSED_BODY_TYPES = /^(text\/plain|application\/x-www-form-urlencoded)\b/i;

/**
 * 415 `unsupported_media_type` for a request that carries a body typed text/plain or as an HTML form:
 * the API reads JSON (and, on the routes that say so, CSV or multipart), so such a body would otherwise
 * be silently ignored. Mount before the routes.
 */
export const refuseUnsupportedBodies: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && REFUSED_BODY_TYPES.test(req.headers['content-type'] ?? '')) {
    return next(new UnsupportedMediaTypeError('Send the body as application/json.'));
  }
  next();
};

/** A parsed, normalised IP address (IPv4-mapped IPv6 as plain IPv4), or undefined when it is not one. */
export function normaliseIp(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const s = text.trim();
  if (!ipaddr.isValid(s)) return undefined;
  const a = ipaddr.parse(s);
  if (a instanceof ipaddr.IPv6 && a.isIPv4MappedAddress()) return a.toIPv4Address().toString();
  return a.toString();
}

/**
 * The client address: walks from the socket outwards through X-Forwarded-For and stops at
 * the first hop not trusted by TRUST_PROXY (express's compiled `trust proxy fn`); a malformed entry
 * ends the walk at the last well-formed address, so a bad header can neither fail the request nor put
 * arbitrary text where an address is expected (audit rows, rate-limit keys).
 */
export function clientIp(req: Request): string {
  const socketAddr = req.socket?.remoteAddress;
  const trust = req.app.get('trust proxy fn') as ((addr: string, i: number) => boolean) | undefined;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .reverse();
  const hops = [socketAddr ?? '', ...forwarded];
  let ip = normaliseIp(socketAddr) ?? '0.0.0.0';
  for (let i = 0; i < hops.length - 1; i++) {
    if (!trust || !trust(hops[i], i)) break;
    const next = normaliseIp(hops[i + 1]);
    if (!next) break;
    ip = next;
  }
  return ip;
}

/** Addresses of sockets (a keep-alive connection carries many requests): normalised once per connection. */
const socketIps = new WeakMap<object, string>();
/** clientIp of a request without X-Forwarded-For: its socket's address, which the walk starts and ends at. */
function socketIp(req: Request): string {
  const socket = req.socket;
  if (!socket) return clientIp(req);
  let ip = socketIps.get(socket);
  if (ip === undefined) socketIps.set(socket, (ip = clientIp(req)));
  return ip;
}

/**
 * Replaces express's `req.ip` with `clientIp(req)` (computed once per request). Mount first, so every
 * logger, limiter and audit row sees the same address.
 */
export const safeClientIp: RequestHandler = (req, _res, next) => {
  const ip = req.headers['x-forwarded-for'] === undefined ? socketIp(req) : clientIp(req);
  Object.defineProperty(req, 'ip', { value: ip, configurable: true, enumerable: true });
  Object.defineProperty(req, 'ips', { value: [], configurable: true, enumerable: true });
  next();
};
