import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/** An address checked to be safe to connect to, and its family. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * A `lookup` for the socket that answers only `pinned` (issue 23 §7): the connection goes to the address
 * the SSRF check approved, whatever the name resolves to by then (DNS rebinding cannot turn a checked public
 * address into loopback between the check and the connect). Answers in the shape Node asks for (one
 * address, or a list when `all` is set, as happens with autoSelectFamily).
 */
export function pinnedLookup(pinned: CheckedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

/**
 * POSTs `body` to `url` (http or https, never following redirects) and answers the HTTP status; connects
 * to `pinned` when given (the Host header and TLS name stay the URL's host), else resolves as usual.
 * Rejects on network errors and after `timeoutMs`. The answer's body is not read.
 */
export function postPinned(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; pinned?: CheckedAddress },
): Promise<number> {
  const u = new URL(url);
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: opts.timeoutMs,
        ...(opts.pinned ? { lookup: pinnedLookup(opts.pinned) } : {}),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
