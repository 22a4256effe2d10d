import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { problemSchema } from '@portal/contracts';
import { z } from 'zod';

/**
 * The one OpenAPI registry: every routes file documents its paths here with the same zod schemas it
 * parses with, and `/api/v1/openapi.json` is generated from it (ARCHITECTURE §5).
 */
export const registry = new OpenAPIRegistry();
const bearerAuth = registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
/** Warehouse systems' API keys (ARCHITECTURE §10): `Authorization: Bearer bcc_<prefix>_<secret>`, not a JWT. */
const apiKeyAuth = registry.registerComponent('securitySchemes', 'apiKey', {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'bcc_<8-character prefix>_<secret>',
  description:
    'An API key made by a board or store administrator (POST /admin/api-keys), sent as `Authorization: Bearer bcc_…`. A key holds scopes (inventory:write, catalog:write, stores:write, orders:read, orders:write) and reaches its store, or every store of its board.',
});
// Components are named with zod's own .meta({ id }), so the contracts stay plain zod (browser-safe).
const problem = problemSchema.meta({ id: 'Problem' });

/** Response headers the API sends, by name, for `headers` of a documented response. */
export const RESPONSE_HEADERS = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' as const, minimum: 1 } },
  'RateLimit-Policy': {
    description:
      'The API key\'s limit (IETF draft-ietf-httpapi-ratelimit-headers-08), e.g. `"api-key"; q=3000; w=60; pk=:…:`: 3,000 requests per 60 s window for the key (pk: a hash naming the key), all routes and API processes together.',
    schema: { type: 'string' as const },
  },
  RateLimit: {
    description:
      'What is left of the key\'s window, e.g. `"api-key"; r=2999; t=60; pk=:…:` (r: requests remaining, t: seconds until the window resets).',
    schema: { type: 'string' as const },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key (nothing was done again).',
    schema: { type: 'string' as const, enum: ['true'] },
  },
};
type HeaderName = keyof typeof RESPONSE_HEADERS;
/** The `headers` object of a documented response. */
export const headers = (...names: HeaderName[]) => Object.fromEntries(names.map((n) => [n, RESPONSE_HEADERS[n]]));

export const problemResponse = (description: string, headerNames: HeaderName[] = []) => ({
  description,
  ...(headerNames.length ? { headers: headers(...headerNames) } : {}),
  content: { 'application/problem+json': { schema: problem } },
});
export const jsonResponse = (description: string, schema: z.ZodTypeAny) => ({ description, content: { 'application/json': { schema } } });
export const jsonBody = (schema: z.ZodTypeAny) => ({ content: { 'application/json': { schema } } });

/** Who may call a documented route: a signed-in user (JWT), a warehouse API key, or anyone. */
export type Security = 'user' | 'apiKey' | 'public';

/**
 * Registers a path under /api/v1 with the standard problem responses added (a route's own description of a
 * status replaces the standard one): 400 validation_failed, 401/403 when secured, 404, 500; API-key routes
 * also 429 rate_limited and the RateLimit headers on every answer.
 */
export function documentRoute(route: Omit<RouteConfig, 'path' | 'security'> & { path: string; auth?: Security }) {
  const { auth = 'user', ...rest } = route;
  const secured = auth !== 'public';
  const limited = auth === 'apiKey';
  const own = Object.fromEntries(
    Object.entries(route.responses).map(([status, r]) => [
      status,
      // Every answer of an API-key route carries the key's rate limit; a 429 or 503 says when to come back.
      Number(status) === 429 || Number(status) === 503 || limited
        ? {
            ...r,
            headers: {
              ...(limited ? headers('RateLimit-Policy', 'RateLimit') : {}),
              ...(Number(status) === 429 || Number(status) === 503 ? headers('Retry-After') : {}),
              ...('headers' in r ? r.headers : undefined),
            },
          }
        : r,
    ]),
  );
  registry.registerPath({
    ...rest,
    path: '/api/v1' + route.path,
    security: secured ? [{ [(limited ? apiKeyAuth : bearerAuth).name]: [] }] : [],
    responses: {
      400: problemResponse('Bad input (validation_failed with field `errors`, malformed_json)'),
      ...(secured
        ? {
            401: problemResponse(limited ? 'No valid API key (unauthenticated)' : 'Not signed in (unauthenticated)'),
            403: problemResponse(
              limited ? 'The key lacks a scope the route needs (api_key_scope_missing)' : 'Missing permission (forbidden)',
            ),
          }
        : {}),
      404: problemResponse('Not found or not yours (not_found)'),
      ...(limited
        ? {
            429: problemResponse("The key's requests per minute are used up (rate_limited)", [
              'Retry-After',
              'RateLimit-Policy',
              'RateLimit',
            ]),
          }
        : {}),
      500: problemResponse('Unexpected error (internal_error; carries a request id)'),
      ...own,
    },
  });
}

let cached: object | undefined;
/** The generated OpenAPI 3.1 document (built once). */
export function openApiDocument() {
  cached ??= new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Liquor ordering portal API',
      version: '1.0.0',
      description: 'B2B ordering portal: outlets order from stores run by boards. Errors are RFC 9457 problem+json.',
    },
    servers: [{ url: '/' }],
  });
  return cached;
}
