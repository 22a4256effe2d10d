import type { Request } from 'express';
import { PROBLEM_CODES } from '@portal/contracts';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors';

/**
 * The whole text of a small text/csv (or text/plain) body, read after authentication: at most `maxBytes`
 * (413 `payload_too_large` past it; the rest is read and dropped so the answer goes out on this connection),
 * UTF-8 only (NUL bytes or invalid UTF-8 → 400 `body_binary`), another media type → 415. For files a person
 * uploads (bulk invitations); the warehouse's big bulk bodies stream through http/bulk-body.ts instead.
 */
export async function readCsvText(req: Request, opts: { maxBytes: number; tooLarge: string; mediaType: string }): Promise<string> {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('text/csv') && !type.startsWith('text/plain')) throw new UnsupportedMediaTypeError(opts.mediaType);
  const enc = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (enc !== 'identity' && enc !== '')
    throw new UnsupportedMediaTypeError(`Content-Encoding "${enc}" is not taken here: send the file as it is.`);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    req.resume();
    throw new PayloadTooLargeError(opts.tooLarge);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  let over = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > opts.maxBytes) over = true;
    if (!over) chunks.push(chunk);
  }
  if (over) throw new PayloadTooLargeError(opts.tooLarge);
  const raw = Buffer.concat(chunks, bytes);
  const binary = () =>
    new BadRequestError(
      'The body is binary, not text: it holds NUL bytes or bytes that are not UTF-8.',
      undefined,
      PROBLEM_CODES.bodyBinary,
    );
  if (raw.includes(0)) throw binary();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw binary();
  }
}
