import fc from 'fast-check';
import request from 'supertest';
import { createTestContext, loginAs, type TestContext } from '../test/harness';
import { FIXTURE_STORES, seedFixtures, type Fixtures } from '../test/fixtures';
import { openApiDocument } from './openapi';

/**
 * A fuzz test generated from the OpenAPI document, so it covers every registered route.
 * For each operation it builds requests from the documented parameter and body schemas: mostly
 * well-typed values (real fixture ids among them, so requests reach the services), mixed with hostile
 * ones (wrong types, NUL and control characters, bad percent-encoding, huge numbers, malformed JSON,
 * lying content types). Fixed seed; fails on any 5xx (but a problem+json 503 the operation documents) and
 * on any 4xx that is not problem+json.
 */
const SEED = 20261127;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: Json[];
  const?: Json;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
  secured: boolean;
  statuses: Set<number>;
}

let t: TestContext;
let f: Fixtures;
let tokens: string[];
beforeAll(async () => {
  t = await createTestContext({ env: { AUTH_IP_LOGIN_LIMIT: '100000' } });
  f = await seedFixtures(t.db);
  tokens = [
    await loginAs(t.app, f.users.admin.email),
    await loginAs(t.app, f.users.buyer.email),
    await loginAs(t.app, f.users.manager.email),
  ];
});
afterAll(async () => {
  await t.close();
});

/** Values no schema expects: they must be refused with a 4xx, never crash a handler. */
const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '%',
    '%00',
    '%ZZ',
    '%E0%A4%A',
    '../../etc/passwd',
    "' OR 1=1 --",
    '${7*7}',
    '\uD800',
    '\uFFFF',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '99999999999999999999999',
    '0x1F',
    '2026-02-30',
    'null',
    'undefined',
    '[]',
    '{}',
    '\r\n',
    '<script>',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 5000 }),
);
const hostileJson: fc.Arbitrary<Json> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1.5, 1e308, -1e-300),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), { maxKeys: 3 }),
);

const FIXTURE_IDS = () => [...Object.values(FIXTURE_STORES), ...Object.values(f.outlets), 1, 2, 3];
const FIXTURE_UUIDS = () => Object.values(f.users).map((u) => u.id);

/** An arbitrary for a JSON Schema (OpenAPI 3.1), mostly valid, sometimes hostile (`wild` ∈ [0, 1]). */
function fromSchema(
  schema: Schema | undefined,
  doc: { components?: { schemas?: Record<string, Schema> } },
  name = '',
  depth = 0,
): fc.Arbitrary<Json> {
  if (!schema || depth > 6) return hostileJson;
  if (schema.$ref) return fromSchema(doc.components?.schemas?.[schema.$ref.split('/').pop()!], doc, name, depth + 1);
  const valid = validFrom(schema, doc, name, depth);
  return fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: hostileJson });
}

function validFrom(s: Schema, doc: Parameters<typeof fromSchema>[1], name: string, depth: number): fc.Arbitrary<Json> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => fromSchema(a, doc, name, depth + 1)));
  if (s.allOf?.length) return fromSchema(s.allOf[0], doc, name, depth + 1);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ['string'];
  return fc.oneof(...types.map((type) => typed(type, s, doc, name, depth)));
}

function typed(type: string, s: Schema, doc: Parameters<typeof fromSchema>[1], name: string, depth: number): fc.Arbitrary<Json> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -10);
      const max = s.maximum ?? 100_000;
      return fc.oneof(fc.constantFrom(...FIXTURE_IDS()), fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, 1e9) }));
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: s.minimum ?? -1e6, max: s.maximum ?? 1e6 });
    case 'array':
      return fc.array(fromSchema(s.items, doc, name, depth + 1), { maxLength: Math.min(s.maxItems ?? 4, 4) });
    case 'object': {
      const props = s.properties ?? {};
      const record: Record<string, fc.Arbitrary<Json>> = {};
      for (const [k, v] of Object.entries(props)) record[k] = fromSchema(v, doc, k, depth + 1);
      return fc.record(record, { requiredKeys: (s.required ?? []).filter((k) => k in props) }) as fc.Arbitrary<Json>;
    }
    default: {
      if (s.format === 'uuid' || /userId$|^id$/.test(name)) return fc.oneof(fc.uuid(), fc.constantFrom(...FIXTURE_UUIDS()));
      if (s.format === 'email' || /email/i.test(name))
        return fc.oneof(fc.emailAddress(), fc.constantFrom('buyer@example.com', 'admin@example.com'));
      if (s.format === 'date' || /date/i.test(name))
        return fc
          .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      if (/code$/i.test(name)) return fc.constantFrom('34006', '11788', 'bcc.orders.create', 'DEMO-DSM-01', 'nope');
      const maxLength = Math.min(s.maxLength ?? 30, 60);
      return fc.string({ minLength: Math.min(s.minLength ?? 0, maxLength), maxLength });
    }
  }
}

/** Every operation of the OpenAPI document. */
function operations(): Operation[] {
  const doc = openApiDocument() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Parameter[];
          requestBody?: { content?: Record<string, { schema?: Schema }> };
          security?: unknown[];
          responses?: Record<string, unknown>;
        }
      >
    >;
  };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.push({
        method,
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
        secured: Boolean(op.security?.length),
        statuses: new Set(Object.keys(op.responses ?? {}).map(Number)),
      });
    }
  }
  return ops;
}

interface FuzzRequest {
  op: Operation;
  path: string;
  query: string;
  body: { kind: 'json'; value: Json } | { kind: 'raw'; type: string; text: string } | { kind: 'none' };
  auth: number;
  headers: Record<string, string>;
}

/** A path segment: the value percent-encoded, or (sometimes) raw hostile text. */
const segment = (value: Json, raw: string | undefined) =>
  raw !== undefined ? raw : encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

function requestFor(op: Operation, doc: Parameters<typeof fromSchema>[1]): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');
  const rawSegment = fc.option(fc.constantFrom('%', '%ZZ', '%00', 'a%2Fb', '..', '%E0%A4%A', '1%20OR%201', ''), { freq: 6 });
  const pathArb = fc
    .tuple(...pathParams.map((p) => fc.tuple(fromSchema(p.schema, doc, p.name), rawSegment)))
    .map((values) =>
      pathParams.reduce((acc, p, i) => acc.replace(`{${p.name}}`, segment(values[i][0], values[i][1] ?? undefined)), op.path),
    );
  const queryArb = fc
    .tuple(
      ...queryParams.map((p) => fc.option(fromSchema(p.schema, doc, p.name), { freq: 3 })),
      fc.option(fc.constantFrom('&junk=%', '&search=%00', '&page=-1', '&x[y]=1&x[z]=2', '&page=1&page=2'), { freq: 5 }),
    )
    .map((values) => {
      const extra = values.pop() as string | null;
      // Lone surrogates cannot be percent-encoded (URIError): the fuzzer sends U+FFFD in their place.
      const wellFormed = (v: string) => v.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
      const parts = queryParams.flatMap((p, i) =>
        values[i] === null
          ? []
          : [
              `${encodeURIComponent(p.name)}=${encodeURIComponent(wellFormed(typeof values[i] === 'string' ? (values[i] as string) : JSON.stringify(values[i])))}`,
            ],
      );
      return parts.join('&') + (extra ?? '');
    });
  const bodyArb: fc.Arbitrary<FuzzRequest['body']> = fc.oneof(
    { weight: 8, arbitrary: fromSchema(op.body, doc).map((value) => ({ kind: 'json' as const, value })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{', '{"a":', '[1,2', 'nul', '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{}}}', '"\\u0000"')
        .map((text) => ({ kind: 'raw' as const, type: 'application/json', text })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          'text/plain',
          'application/xml',
          'application/json; charset=latin1',
          'application/json; charset=utf-7',
          'multipart/form-data; boundary=x',
        )
        .map((type) => ({ kind: 'raw' as const, type, text: '{"email":"a@b.c"}' })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  );
  const headerArb = fc
    .tuple(...headerParams.map((p) => fc.option(fromSchema(p.schema, doc, p.name), { freq: 2 })))
    .map((values) =>
      Object.fromEntries(
        headerParams.flatMap((p, i) =>
          values[i] === null
            ? []
            : [
                [
                  p.name,
                  (typeof values[i] === 'string' ? (values[i] as string) : (JSON.stringify(values[i]) ?? ''))
                    .replace(/[^\x20-\x7e]/g, '?')
                    .slice(0, 200),
                ],
              ],
        ),
      ),
    );
  return fc.record({
    op: fc.constant(op),
    path: pathArb,
    query: queryArb,
    body: bodyArb,
    auth: fc.integer({ min: -1, max: 2 }),
    headers: headerArb,
  });
}

async function send(r: FuzzRequest) {
  const url = r.path + (r.query ? `?${r.query.replace(/^&/, '')}` : '');
  let req = request(t.app)[r.op.method as 'get'](url);
  if (r.auth >= 0) req = req.set('Authorization', `Bearer ${tokens[r.auth]}`);
  req = req.set('X-Forwarded-For', '192.0.2.200');
  for (const [k, v] of Object.entries(r.headers)) req = req.set(k, v);
  if (['post', 'put', 'patch', 'delete'].includes(r.op.method)) {
    if (r.body.kind === 'json') req = req.set('Content-Type', 'application/json').send(JSON.stringify(r.body.value));
    else if (r.body.kind === 'raw') req = req.set('Content-Type', r.body.type).send(r.body.text);
  }
  return req;
}

describe('fuzzing every documented route', () => {
  it(`when ${REQUESTS} generated requests (seed ${SEED}) hit the documented routes, then none answers 5xx and every 4xx is problem+json`, async () => {
    const doc = openApiDocument() as Parameters<typeof fromSchema>[1];
    const ops = operations();
    expect(ops.length).toBeGreaterThan(20);
    // Every operation gets its share first (round robin), then the rest at random.
    const perOp = Math.max(3, Math.floor(REQUESTS / ops.length));
    const samples = ops.flatMap((op, i) => fc.sample(requestFor(op, doc), { seed: SEED + i, numRuns: perOp }));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const r of samples) {
      const res = await send(r);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const label = `${r.op.method.toUpperCase()} ${r.path}${r.query ? `?${r.query}` : ''} body=${JSON.stringify(r.body).slice(0, 200)} → ${res.status}`;
      // A 503 the operation documents (a dependency the server runs without, e.g. no job queue) is a clean
      // refusal, not a crash; every other 5xx fails.
      const documented503 =
        res.status === 503 && r.op.statuses.has(503) && /application\/problem\+json/.test(String(res.headers['content-type']));
      if (res.status >= 500 && !documented503) failures.push(`${label} ${res.text.slice(0, 200)}`);
      else if (res.status >= 400 && !/application\/problem\+json/.test(String(res.headers['content-type'])))
        failures.push(`${label} (not problem+json: ${res.headers['content-type']})`);
    }
    console.log(
      `fuzz: ${samples.length} requests over ${ops.length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
