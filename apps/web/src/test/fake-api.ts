import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import type { z } from 'zod';
import { problemSchema, type ProblemCode } from '@portal/contracts';
import { api } from '@/lib/api';

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

/** A handler for a request that never reaches the server: axios' network error, or its timeout with `{ timeout: true }`. */
export function unreachable({ timeout = false } = {}): Handler {
  return () => {
    throw timeout ? new AxiosError('timeout exceeded', AxiosError.ECONNABORTED) : new AxiosError('Network Error', AxiosError.ERR_NETWORK);
  };
}

/**
 * The fake API of web tests: it answers the one axios instance (lib/api) in memory. Declare routes with
 * `on(method, path, handler)` where `path` is an API path under /api/v1 with `{param}` placeholders (or a
 * RegExp); the handler returns `reply(schema, body)` or `problem(status, code, detail)`. Unknown routes
 * answer 404 not_found and are recorded, so a test sees what it forgot. `calls` lists every request in order.
 */
export class FakeApi {
  readonly calls: FakeCall[] = [];
  private readonly routes: { method: Method; pattern: RegExp; handler: Handler }[] = [];
  private readonly sentHeaders = new WeakMap<FakeCall, AxiosHeaders>();
  private previous: InternalAxiosRequestConfig['adapter'];

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
    const value = this.sentHeaders.get(call)?.get(name);
    return value == null ? undefined : String(value);
  }

  /** Routes `lib/api` to this fake (until `uninstall`). */
  install(): this {
    this.previous = api.defaults.adapter;
    const adapter: AxiosAdapter = async (config) => this.answer(config);
    api.defaults.adapter = adapter;
    return this;
  }

  uninstall(): void {
    api.defaults.adapter = this.previous;
  }

  private async answer(config: InternalAxiosRequestConfig): Promise<AxiosResponse> {
    const method = (config.method ?? 'get').toLowerCase() as Method;
    const query = config.params ? `?${new URLSearchParams(config.params as Record<string, string>).toString()}` : '';
    const url = `${config.url ?? ''}${query}`;
    // JSON bodies are parsed; a text body (text/csv) is kept as the text sent.
    const type = String(AxiosHeaders.from(config.headers).get('Content-Type') ?? '');
    const body = typeof config.data === 'string' && config.data && !type.startsWith('text/') ? JSON.parse(config.data) : config.data;
    const call = { method, url, body };
    this.calls.push(call);
    this.sentHeaders.set(call, AxiosHeaders.from(config.headers));
    let answer: FakeAnswer = problem(404, 'not_found', `No fake for ${method.toUpperCase()} ${url}`);
    for (const r of this.routes) {
      const m = r.method === method ? r.pattern.exec(url) : null;
      if (m) {
        answer = await r.handler(call, m);
        break;
      }
    }
    const response: AxiosResponse = { data: answer.body, status: answer.status, statusText: String(answer.status), headers: {}, config };
    const validate = config.validateStatus ?? ((s: number) => s >= 200 && s < 300);
    if (validate(answer.status)) return response;
    throw new AxiosError(`Request failed with status code ${answer.status}`, undefined, config, undefined, response);
  }
}
