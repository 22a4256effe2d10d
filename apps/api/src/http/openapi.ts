import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { problemSchema } from '@portal/contracts';
import { z } from 'zod';

/**
 * The one OpenAPI registry: every routes file documents its paths here with the same zod schemas it
 * parses with, and `/api/v1/openapi.json` is generated from it (ARCHITECTURE §5).
 */
export const registry = new OpenAPIRegistry();
const bearerAuth = registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
// Components are named with zod's own .meta({ id }), so the contracts stay plain zod (browser-safe).
const problem = problemSchema.meta({ id: 'Problem' });

export const problemResponse = (description: string) => ({ description, content: { 'application/problem+json': { schema: problem } } });
export const jsonResponse = (description: string, schema: z.ZodTypeAny) => ({ description, content: { 'application/json': { schema } } });
export const jsonBody = (schema: z.ZodTypeAny) => ({ content: { 'application/json': { schema } } });

/** Registers a path under /api/v1 with the standard problem responses added. */
export function documentRoute(route: Omit<RouteConfig, 'path'> & { path: string; secured?: boolean }) {
  const { secured = true, ...rest } = route;
  registry.registerPath({
    ...rest,
    path: '/api/v1' + route.path,
    security: secured ? [{ [bearerAuth.name]: [] }] : [],
    responses: {
      ...route.responses,
      400: problemResponse('Bad input'),
      ...(secured ? { 401: problemResponse('Not signed in'), 403: problemResponse('Missing permission') } : {}),
      404: problemResponse('Not found or not yours'),
      500: problemResponse('Unexpected error (carries a request id)'),
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
