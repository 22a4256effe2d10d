import { TimeoutError } from 'ky';
import type { z } from 'zod';
import { problemSchema, type ProblemCode } from '@portal/contracts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A recorded call: method, path (after /api/v1, with its query) and the parsed JSON body (a text/* body as its text). */
export interface FakeCall {
  method: Method;
  url: string;
  body: unknown;
}

/** A fake answer: a status and a body, as `reply(...)` or `problem(...)` build them. */
export interface FakeAnswer {
  status: number;
  body?: unknown;
}

type Handler = (call: FakeCall, match: RegExpExecArray) => FakeAnswer | Promise<FakeAnswer>;

/** A success answer; `schema` (a contracts schema) checks the body, so a fake cannot drift from the contract. */
export function reply<S extends z.ZodType>(schema: S, body: z.input<S>, status = 200): FakeAnswer {
  return { status, body: schema.parse(body) };
}

/** An RFC 9457 problem answer with a PROBLEM_CODES code, checked with the contracts' problemSchema (`detail` is optional there). */
export function problem(status: number, code: ProblemCode, detail?: string, errors?: { path: string; message: string }[]): FakeAnswer {
  return {
    status,
    body: problemSchema.parse({
      type: `https://portal.local/problems/${code}`,
      title: 'Problem',
      status,
      code,
      ...(detail === undefined ? {} : { detail }),
      ...(errors ? { errors } : {}),
    }),
  };
}

/** What `unreachable()` handlers throw: the fake answers it as fetch's network failure or ky's timeout. */
class Unreachable extends Error {
  constructor(readonly timeout: boolean) {
    super(timeout ? 'timeout' : 'network');
  }
}

/** A handler for a request that never reaches the server: fetch's network error, or ky's timeout with `{ timeout: true }`. */
export function unreachable({ timeout = false } = {}): Handler {
  return () => {
    throw new Unreachable(timeout);
  };
}

/** A request as the fake sees it, whichever transport sent it (ky's fetch, or lib/api's XMLHttpRequest upload). */
interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

/**
 * The fake API of web tests: it answers lib/api's ky client in memory, standing in for the global `fetch`
 * (and for XMLHttpRequest, which lib/api's upload with progress uses). Declare routes with
 * `on(method, path, handler)` where `path` is an API path under /api/v1 with `{param}` placeholders (or a
 * RegExp); the handler returns `reply(schema, body)` or `problem(status, code, detail)`. Unknown routes
 * answer 404 not_found and are recorded, so a test sees what it forgot. `calls` lists every request in order
 * (POST /auth/refresh included, which lib/api sends outside its client's hooks).
 */
export class FakeApi {
  readonly calls: FakeCall[] = [];
  private readonly routes: { method: Method; pattern: RegExp; handler: Handler }[] = [];
  private readonly sentHeaders = new WeakMap<FakeCall, Headers>();
  private previous?: { fetch: typeof fetch; xhr: typeof XMLHttpRequest };

  on(method: Method, path: string | RegExp, handler: Handler | FakeAnswer): this {
    const pattern =
      typeof path === 'string'
        ? new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}|\{\w+\}/g, '([^/?]+)')}(\\?.*)?$`)
        : path;
    this.routes.unshift({ method, pattern, handler: typeof handler === 'function' ? handler : () => handler });
    return this;
  }

  /** The URLs called with `method` so far, in order (e.g. `expect(api.urls('post')).toContain('/orders/3/complete')`). */
  urls(method: Method): string[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.url);
  }

  /** A request header the client sent with `call` (case-insensitive), e.g. `api.headerOf(call, 'Idempotency-Key')`. */
  headerOf(call: FakeCall, name: string): string | undefined {
    return this.sentHeaders.get(call)?.get(name) ?? undefined;
  }

  /** Routes `lib/api` to this fake (until `uninstall`): replaces the global fetch and XMLHttpRequest. */
  install(): this {
    this.previous = { fetch: globalThis.fetch, xhr: globalThis.XMLHttpRequest };
    globalThis.fetch = this.fetch;
    globalThis.XMLHttpRequest = fakeXhr(this);
    return this;
  }

  uninstall(): void {
    if (!this.previous) return;
    globalThis.fetch = this.previous.fetch;
    globalThis.XMLHttpRequest = this.previous.xhr;
    this.previous = undefined;
  }

  /** The fetch of lib/api's ky client: JSON bodies are parsed; a text body (text/csv) is kept as the text sent. */
  private readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const type = request.headers.get('Content-Type') ?? '';
    const text = await request.text();
    const body = text && !type.startsWith('text/') ? (JSON.parse(text) as unknown) : text || undefined;
    try {
      const answer = await this.answer({ method: request.method, url: request.url, headers: request.headers, body });
      const empty = answer.body === undefined || [204, 205, 304].includes(answer.status);
      const payload = typeof answer.body === 'string' || answer.body instanceof Blob ? answer.body : JSON.stringify(answer.body);
      return new Response(empty ? null : payload, { status: answer.status, headers: { 'Content-Type': 'application/json' } });
    } catch (e) {
      if (e instanceof Unreachable) throw e.timeout ? new TimeoutError(request) : new TypeError('Failed to fetch');
      throw e;
    }
  };

  /** Records the request and answers it from the first route that matches (404 not_found when none does). */
  async answer(sent: Sent): Promise<FakeAnswer> {
    const method = sent.method.toLowerCase() as Method;
    const full = new URL(sent.url, 'http://localhost');
    const url = `${full.pathname.replace(/^\/api\/v1/, '')}${full.search}`;
    const call = { method, url, body: sent.body };
    this.calls.push(call);
    this.sentHeaders.set(call, sent.headers);
    for (const r of this.routes) {
      const m = r.method === method ? r.pattern.exec(url) : null;
      if (m) return r.handler(call, m);
    }
    return problem(404, 'not_found', `No fake for ${method.toUpperCase()} ${url}`);
  }
}

/**
 * An XMLHttpRequest that `fake` answers (the part lib/api's upload uses: open, setRequestHeader, send,
 * upload.onprogress, onload, onerror, status, responseText). It reports the upload as sent in full, once.
 */
function fakeXhr(fake: FakeApi): typeof XMLHttpRequest {
  class FakeXhr {
    readonly upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    withCredentials = false;
    status = 0;
    statusText = '';
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private method = 'GET';
    private url = '';
    private readonly headers = new Headers();

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers.set(name, value);
    }
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n';
    }
    abort() {
      this.onabort?.();
    }
    send(body: unknown) {
      void fake.answer({ method: this.method, url: this.url, headers: this.headers, body }).then(
        (answer) => {
          this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 1 } as ProgressEvent);
          this.status = answer.status;
          this.statusText = String(answer.status);
          this.responseText = answer.body === undefined ? '' : JSON.stringify(answer.body);
          this.onload?.();
        },
        () => this.onerror?.(),
      );
    }
  }
  return FakeXhr as unknown as typeof XMLHttpRequest;
}
