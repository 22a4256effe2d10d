import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../context';
import type { Principal } from '../modules/access/access.service';
import { can } from '../modules/access/access.service';
import { mayKeyReachRow, mayReachRow, type RowKind } from '../modules/access/rows';
import { forgetPrincipals } from '../modules/access/principal-cache';
import { authenticate, requirePermission } from './auth';
import { apiKeyRateLimit, authenticateApiKey, isApiKeyPrincipal, type ApiKeyPrincipal } from './api-key-auth';
import { ForbiddenError, NotFoundError } from './errors';
import { labelRoute } from './metrics';
import { documentRoute, headers as openApiHeaders, jsonBody, jsonResponse, problemResponse } from './openapi';

/**
 * One declaration per route (house style): method, path, permission(s), input schemas, response schema and
 * summary. `mountRoutes` registers the OpenAPI entry, authenticates, checks the permission, parses the input
 * with the contracts schemas and calls the typed handler `(actor, input, http) → result`; the result is sent
 * as JSON with `response.status` (204 when the route declares no response schema and returns nothing).
 *
 * Handlers never build error bodies: they throw the typed errors of `http/errors.ts`.
 */

/** Who may call a route: a signed-in user (default), anyone (`public`), a warehouse API key (`apiKey`, ARCHITECTURE §10). */
export type AuthKind = 'user' | 'public' | 'apiKey';

/** The caller a handler receives for each AuthKind. */
export type ActorOf<K extends AuthKind> = K extends 'public' ? Principal | undefined : K extends 'apiKey' ? ApiKeyPrincipal : Principal;

type Schema = z.ZodType;
/** Path parameters, query strings and headers are objects of named parts (OpenAPI lists each one). */
type ObjectSchema = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The parsed input of a route: only the parts it declares are typed (the rest are undefined). */
export interface RouteInput<P, Q, B, H> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  headers: Out<H>;
}

/** A route's input in the route table, whatever its schemas: objects of named parts, and any body. */
type ErasedInput = RouteInput<ObjectSchema | undefined, ObjectSchema | undefined, Schema | undefined, ObjectSchema | undefined>;

/**
 * Where a route's permission must be held (ARCHITECTURE §11), declared with the route so the check runs in one
 * place and the scope matrix test covers the route the day it is declared:
 * - `public`: no caller (sign-in, invitation links, health);
 * - `self`: the caller's own data only (/me, their checkout session, their latest order);
 * - `reach`: a list the service filters to the places the caller reaches (access.reach);
 * - `global`: the permission must be held through a global grant (imports, role permissions, deleting users,
 *   new boards): 403 otherwise;
 * - `reference`: reference data any holder of the permission may read (the role catalogue);
 * - `grants`: the body names places to grant at; the granting rules (access/grants.service) check each;
 * - `{ row, id }`: one row, found by `id(input)` (from the path or query, or from the body with `fromBody`);
 *   before the handler runs the caller must hold one of the route's codes (or `codes`) at that row's place
 *   (modules/access/rows.ts), else 404 with `notFound` (default 'Not found'), as for an absent row. `inService`
 *   marks a row whose service applies the same rule in its own query (the check is not run twice).
 */
export type RouteScope<I> =
  | 'public'
  | 'self'
  | 'reach'
  | 'global'
  | 'reference'
  | 'grants'
  | {
      row: RowKind;
      // A method (checked bivariantly) so a route's typed scope fits the route table's erased one.
      id(input: I): unknown;
      codes?: readonly string[];
      notFound?: string;
      fromBody?: boolean;
      /** The service checks this very rule inside its own statement (a hot path: the catalog page): no check here. */
      inService?: true;
    };

/** What a handler may touch beyond its input: the app context and, for edge cases, the raw exchange. */
export interface RouteHttp {
  ctx: AppContext;
  req: Request;
  res: Response;
}

export interface RouteDef<K extends AuthKind, P, Q, B, H, R> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Path under /api/v1 in OpenAPI form: `/orders/{orderId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Default `user`. */
  auth?: K;
  /** For `auth: 'apiKey'`: the key scopes the route needs (all of them; 403 api_key_scope_missing otherwise). */
  scopes?: readonly string[];
  /** Passes when the caller holds any one of these permission codes (ARCHITECTURE §4) — where, says `scope`. */
  permissions?: readonly string[];
  /** Where the permission must be held: the row the route acts on (see RouteScope). Every route declares it. */
  scope: RouteScope<RouteInput<P, Q, B, H>>;
  /** The 403 problem's detail when the caller lacks `permissions` (a spec text); default the generic one. */
  forbiddenDetail?: string;
  /**
   * Reuse the caller's loaded principal for `config.catalogPrincipalCacheMs` (CATALOG_PRINCIPAL_CACHE_MS,
   * default 2000 ms; read-only hot paths only, e.g. the catalog: without the notification listener a revoked
   * permission applies there within this bound). Default false: the principal is reused for
   * `config.principalCacheMs` (PRINCIPAL_CACHE_MS) only while principal changes are heard (issue 29 §1).
   */
  cachePrincipal?: boolean;
  /**
   * A POST, PUT, PATCH or DELETE route that never changes what a principal holds (grants, a user's active flag
   * or email, sessions, role permissions): its answer leaves this process's cached principals in place. Every
   * other such route drops them all before it answers, so its change applies to the very next request here
   * (other processes drop theirs on its notification). A GET route must never change a principal. Default false.
   */
  keepsPrincipals?: boolean;
  /**
   * GET hot paths whose params and query schemas are pure functions of their input (no default from the clock,
   * no lookup): the parsed params and query of the 1,000 most recent distinct inputs are reused (each call gets
   * its own shallow copy), so a repeated request skips zod. Default false.
   */
  memoInput?: boolean;
  params?: P;
  query?: Q;
  /** JSON body schema. For non-JSON bodies leave it out and read `http.req` in the handler. */
  body?: B;
  /**
   * For OpenAPI only: the request body of a route that reads its own (bulk JSON or CSV), by media type, e.g.
   * `{ 'application/json': { schema }, 'text/csv': { schema, example } }`.
   */
  bodyDoc?: { description?: string; content: Record<string, { schema: Schema; example?: string }> };
  /** Request headers to parse (lower-case names), e.g. `z.object({ 'idempotency-key': … })`. */
  headers?: H;
  /** Success answer: status (default 200, or 204 without a schema) and its schema. */
  response?: { status?: number; description?: string; schema?: Schema };
  /**
   * Further documented answers, e.g. `{ 409: 'Already decided (outlet_request_decided)' }` (problem+json), or
   * `{ 503: { description, schema } }` for a JSON answer a handler sends with `reply()`.
   */
  errors?: Record<number, string | { description: string; schema: Schema }>;
  /** Cookies the route reads, for the OpenAPI document only: read them from `http.req.cookies`. */
  cookies?: z.ZodObject;
  /** Express middleware run before authentication (rate limiters, body parsers), built once per app. */
  before?: (ctx: AppContext) => RequestHandler[];
  /**
   * Declared as a method (checked bivariantly) so a typed route fits the route table's erased `Route['def']`:
   * `mountRoutes` passes the actor of the route's own `auth` (ApiKeyPrincipal for `apiKey`, the signed-in
   * Principal for `user`, undefined or a Principal for `public`) and the input parsed with its own schemas.
   */
  handler(actor: ActorOf<K>, input: RouteInput<P, Q, B, H>, http: RouteHttp): Promise<R> | R;
}

/** A handler's answer with another status than the route's success status (e.g. readiness 503). */
export class Reply<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}
/** Answers `body` with `status` instead of the route's declared success status. */
export const reply = <T>(status: number, body: T) => new Reply(status, body);

/** A declared route, as the route table holds it (handler types erased). */
export interface Route {
  method: RouteDef<AuthKind, unknown, unknown, unknown, unknown, unknown>['method'];
  path: string;
  auth: AuthKind;
  permissions: readonly string[];
  scope: RouteScope<ErasedInput>;
  summary: string;
  def: RouteDef<AuthKind, ObjectSchema | undefined, ObjectSchema | undefined, Schema | undefined, ObjectSchema | undefined, unknown>;
}

/** Declares one route; the generics are inferred from the schemas so the handler's input is typed. */
export function route<
  K extends AuthKind = 'user',
  P extends ObjectSchema | undefined = undefined,
  Q extends ObjectSchema | undefined = undefined,
  B extends Schema | undefined = undefined,
  H extends ObjectSchema | undefined = undefined,
  R = unknown,
>(def: RouteDef<K, P, Q, B, H, R>): Route {
  return {
    method: def.method,
    path: def.path,
    auth: def.auth ?? 'user',
    permissions: def.permissions ?? [],
    scope: def.scope,
    summary: def.summary,
    def,
  };
}

const documented = new WeakSet<Route>();
/** Adds a route to the OpenAPI registry (once per declaration, however many apps are built). */
function document(r: Route) {
  if (documented.has(r)) return;
  documented.add(r);
  const { def } = r;
  const status = def.response?.status ?? (def.response?.schema ? 200 : 204);
  const extra: Record<number, ReturnType<typeof problemResponse> | ReturnType<typeof jsonResponse>> = {};
  for (const [code, answer] of Object.entries(def.errors ?? {})) {
    extra[Number(code)] = typeof answer === 'string' ? problemResponse(answer) : jsonResponse(answer.description, answer.schema);
  }
  const { params, query, headers } = def;
  // A route taking an Idempotency-Key says so in its answer's Idempotent-Replayed header.
  const replays = Boolean(headers?.shape && 'idempotency-key' in headers.shape);
  const success = def.response?.schema
    ? jsonResponse(def.response.description ?? 'OK', def.response.schema)
    : { description: def.response?.description ?? 'Done' };
  documentRoute({
    method: def.method,
    path: def.path,
    tags: def.tags,
    summary: def.summary + (r.permissions.length ? ` (needs ${r.permissions.join(' or ')})` : ''),
    description: def.description,
    auth: r.auth,
    request: {
      ...(params ? { params } : {}),
      ...(query ? { query } : {}),
      ...(headers ? { headers } : {}),
      ...(def.cookies ? { cookies: def.cookies } : {}),
      ...(def.body ? { body: jsonBody(def.body) } : {}),
      ...(def.bodyDoc ? { body: { description: def.bodyDoc.description, required: true, content: def.bodyDoc.content } } : {}),
    },
    responses: {
      [status]: replays ? { ...success, headers: openApiHeaders('Idempotent-Replayed') } : success,
      ...extra,
    },
  });
}

/** Middleware labelling the request's metrics with the route's declared path (http/metrics.ts). */
const labelledAs =
  (path: string): RequestHandler =>
  (_req, res, next) => {
    labelRoute(res, path);
    next();
  };

/** `/orders/{orderId}` → `/orders/:orderId`. */
export const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** A route's input while it is being parsed (each part typed by its schema once parsed). */
type RawInput = ErasedInput;

/**
 * Builds one Router (mounted at /api/v1) from the route table: for each route its `before` middleware,
 * authentication, the permission check, input parsing, the handler and the answer.
 */
export function mountRoutes(ctx: AppContext, routes: readonly Route[]): Router {
  const router = Router();
  // Routes by their path's first segment (every declared path starts with a literal one): a request is matched
  // only against the routes of its own segment, in their declared order, instead of every route before it.
  const buckets = new Map<string, Router>();
  const authenticators = new Map<string, RequestHandler>();
  const authenticator = (catalog: boolean) => {
    const key = String(catalog);
    let a = authenticators.get(key);
    if (!a) {
      a = catalog
        ? authenticate(ctx.db, ctx.config.jwtSecret, { principalCacheMs: ctx.config.catalogPrincipalCacheMs })
        : authenticate(ctx.db, ctx.config.jwtSecret, { principalCacheMs: ctx.config.principalCacheMs, onlyWhileHeard: true });
      authenticators.set(key, a);
    }
    return a;
  };
  // One limiter for every API-key route: a key has one budget, whatever the route.
  const keyLimit = apiKeyRateLimit(ctx.db, ctx.config.apiKeyRateLimitPerMinute);
  for (const r of routes) {
    document(r);
    const { def } = r;
    // First: the metrics label is the declared path for every answer, a 401 or 400 as much as the 200.
    const chain: RequestHandler[] = [labelledAs(def.path), ...(def.before?.(ctx) ?? [])];
    if (r.auth === 'user') chain.push(authenticator(Boolean(def.cachePrincipal)));
    // Before this route answers (whatever it answers), this process's cached principals are dropped: see keepsPrincipals.
    const dropsPrincipals = def.method !== 'get' && !def.keepsPrincipals;
    if (r.auth === 'apiKey') chain.push(authenticateApiKey(ctx.db, def.scopes), keyLimit);
    if (r.permissions.length) {
      const check = requirePermission(...r.permissions);
      const detail = def.forbiddenDetail;
      chain.push(
        detail
          ? (req, res, next) => {
              try {
                check(req, res, next);
              } catch (e) {
                throw e instanceof ForbiddenError ? new ForbiddenError(detail) : e;
              }
            }
          : check,
      );
    }
    const status = def.response?.status ?? (def.response?.schema ? 200 : 204);
    const scope = r.scope;
    const parseParams = def.params && (def.memoInput ? memoParse(def.params) : (raw: unknown) => def.params!.parse(raw));
    const parseQuery = def.query && (def.memoInput ? memoParse(def.query) : (raw: unknown) => def.query!.parse(raw));
    const answer = async (req: Request, res: Response) => {
      const input: RawInput = {
        params: parseParams ? parseParams(req.params) : undefined,
        query: parseQuery ? parseQuery(req.query) : undefined,
        body: undefined,
        headers: undefined,
      };
      // A row out of reach answers 404 before its body is read: a refusal says nothing of the input.
      if (typeof scope === 'object' && !scope.fromBody && !scope.inService) await checkRow(ctx, r, req, input);
      if (scope === 'global' && !(await can(ctx.db, userOf(req), r.permissions, { type: 'global' }))) throw new ForbiddenError();
      input.body = def.body ? def.body.parse(req.body ?? {}) : undefined;
      input.headers = def.headers ? def.headers.parse(req.headers) : undefined;
      if (typeof scope === 'object' && scope.fromBody && !scope.inService) await checkRow(ctx, r, req, input);
      const result = await def.handler(req.auth, input, { ctx, req, res });
      if (res.headersSent) return;
      if (result instanceof Reply) res.status(result.status).json(result.body);
      else if (result === undefined) res.status(status === 200 ? 204 : status).end();
      else res.status(status).json(result);
    };
    chain.push(
      dropsPrincipals
        ? async (req, res) => {
            try {
              await answer(req, res);
            } finally {
              // Synchronously after the answer is handed to the socket or before an error answer is made: the
              // caller's next request is read only after this (issue 29 §1).
              forgetPrincipals('*');
            }
          }
        : answer,
    );
    const segment = firstSegment(def.path);
    if (!segment || segment.includes('{')) throw new Error(`mountRoutes: ${def.path} must start with a literal segment`);
    let bucket = buckets.get(segment);
    if (!bucket) buckets.set(segment, (bucket = Router()));
    bucket[def.method](expressPath(def.path), ...chain);
  }
  router.use((req, res, next) => {
    const bucket = buckets.get(firstSegment(req.url));
    if (!bucket) return next();
    bucket(req, res, next);
  });
  return router;
}

/**
 * The first segment of a path or URL, lower-cased as Express matches paths (case-insensitively):
 * `/stores/{storeId}` and `/Stores/4129?x=1` → `stores`.
 */
export function firstSegment(url: string): string {
  let end = 1;
  while (end < url.length && url[end] !== '/' && url[end] !== '?') end++;
  return url.slice(1, end).toLowerCase();
}

/**
 * `schema.parse` remembering its outputs by input (memoInput): the input is a flat object of strings (path
 * parameters, a parsed query string), keyed as JSON; an output is kept only when it is a flat object of
 * primitives, and every call returns its own copy. Refusals are never kept (each throws again).
 */
function memoParse<S extends ObjectSchema>(schema: S): (raw: unknown) => z.output<S> {
  const outputs = new LRUCache<string, Record<string, unknown>>({ max: 1000 });
  return (raw) => {
    const key = JSON.stringify(raw);
    const hit = outputs.get(key);
    if (hit) return { ...hit } as z.output<S>;
    const out = schema.parse(raw) as Record<string, unknown>;
    if (Object.values(out).every((v) => v === null || typeof v !== 'object')) outputs.set(key, { ...out });
    return out as z.output<S>;
  };
}

/** The declared row check of a route (RouteScope `{ row }`): 404 when the caller does not reach the row. */
async function checkRow(ctx: AppContext, r: Route, req: Request, input: RawInput) {
  const { scope } = r;
  if (typeof scope !== 'object') return;
  const id = scope.id(input);
  const caller = req.auth;
  const ok =
    caller && isApiKeyPrincipal(caller)
      ? await mayKeyReachRow(ctx.db, caller, scope.row, id)
      : await mayReachRow(ctx.db, userOf(req), scope.row, id, scope.codes ?? r.permissions);
  if (!ok) throw new NotFoundError(scope.notFound ?? 'Not found');
}

/**
 * The signed-in user of a `user` route (set by `authenticate`, which runs first). The route table's checks
 * that need one (`global`, a row) run after it; a public route declares neither. Throws when there is none:
 * a route declared so that its check runs without a user is a bug.
 */
function userOf(req: Request): Principal {
  const caller = req.auth;
  if (!caller || isApiKeyPrincipal(caller)) throw new Error('This route check needs a signed-in user (auth: user).');
  return caller;
}
