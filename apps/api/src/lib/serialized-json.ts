import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * A JSON answer serialized once and kept with what a cache holds (issue 29 §2: the catalog page cache keeps
 * its page's body): the UTF-8 bytes, a strong entity tag over them, and the brotli and gzip bodies, each made
 * on first use and kept. http/cached-json.ts sends it (304 on a matching If-None-Match).
 */
export interface SerializedJson {
  /** The JSON text as UTF-8. */
  readonly json: Buffer;
  /** The strong entity tag of the identity body, quoted (`"<sha1 base64url>"`); the coded bodies add `-br`/`-gz`. */
  readonly etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

/** `value` serialized (JSON.stringify, UTF-8) with its strong ETag (SHA-1 of the bytes, base64url). */
export function serializeJson(value: unknown): SerializedJson {
  const json = Buffer.from(JSON.stringify(value), 'utf8');
  return { json, etag: `"${createHash('sha1').update(json).digest('base64url')}"` };
}

/** The brotli body of `s` (quality 4, as the compression middleware), made once. */
export function brotliOf(s: SerializedJson): Buffer {
  return (s.br ??= brotliCompressSync(s.json, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }));
}

/** The gzip body of `s` (zlib's default level), made once. */
export function gzipOf(s: SerializedJson): Buffer {
  return (s.gzip ??= gzipSync(s.json));
}
