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

/** What a receiver answered: its HTTP status and reason phrase, and (for a non-2xx answer) the head of its body. */
export interface ReceiverAnswer {
  status: number;
  statusText: string;
  /** Up to `keepBytes` of the body of a non-2xx answer, as UTF-8 text; '' for a 2xx (never read). */
  text: string;
}

/**
 * POSTs `body` to `url` (http or https, never following redirects) and answers what the receiver said;
 * connects to `pinned` when given (the Host header and TLS name stay the URL's host), else resolves as
 * usual. Rejects on network errors and after `timeoutMs`.
 */
export function postPinned(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; pinned?: CheckedAddress; keepBytes: number },
): Promise<ReceiverAnswer> {
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
        const status = res.statusCode ?? 0;
        const answer = { status, statusText: res.statusMessage ?? '' };
        if (status >= 200 && status < 300) {
          res.resume();
          return resolve({ ...answer, text: '' });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => resolve({ ...answer, text: Buffer.concat(chunks).subarray(0, opts.keepBytes).toString('utf8') });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= opts.keepBytes) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', done); // a body that breaks off still leaves the status
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
