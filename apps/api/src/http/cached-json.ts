import type { Request, Response } from 'express';
import { brotliOf, gzipOf, type SerializedJson } from '../lib/serialized-json';

/** Bodies below this size go as they are (the compression middleware's threshold, app.ts). */
const COMPRESS_FROM = 1024;

/** Does If-None-Match (a list of entity tags, or `*`) name `etag`? Weak comparison (RFC 9110 §13.1.2). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

/**
 * Sends a JSON answer serialized beforehand (lib/serialized-json.ts) with `status` (default 200): brotli, else
 * gzip, when the client accepts it and the body is 1 KB or more (the coded bodies are made once and kept, so
 * the compression middleware passes them through), a strong ETag per coding, `Vary: Accept-Encoding`, and
 * `Cache-Control: private, no-cache` (a browser may keep it but asks again every time); a request whose
 * If-None-Match names the ETag is answered 304 with no body (RFC 9110 §13.1.2). Call it only once the caller's
 * authentication and reach are checked: a 304 says the caller may see the page.
 */
export function sendSerializedJson(req: Request, res: Response, s: SerializedJson, status = 200): void {
  // Brotli first whatever order the client lists them in (as app.ts's assets); none asked for: as it is.
  const asks = s.json.length >= COMPRESS_FROM && Boolean(req.headers['accept-encoding']);
  const coding = !asks
    ? undefined
    : req.acceptsEncodings('br') === 'br'
      ? 'br'
      : req.acceptsEncodings('gzip') === 'gzip'
        ? 'gzip'
        : undefined;
  const etag = coding ? `${s.etag.slice(0, -1)}-${coding === 'br' ? 'br' : 'gz'}"` : s.etag;
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', etag);
  if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  const body = coding === 'br' ? brotliOf(s) : coding === 'gzip' ? gzipOf(s) : s.json;
  res.status(status);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (coding) res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
