import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROBLEM_CODE_VALUES, PROBLEM_STATUS, type ProblemCode } from '@portal/contracts';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { createDb } from '../db/knex';
import { createLogger } from '../logger';
import { routeTable } from '../routes';
import { openApiDocument } from './openapi';

/**
 * One HTTP status per problem code across every endpoint (issue 24 §7, ARCHITECTURE §5): the table in
 * contracts gives each code its status, the typed errors take only codes of their status (the compiler
 * holds every `new …Error(…, code)` to it), and this test holds the route table, the OpenAPI document and
 * the few places that build an AppError by hand to the same table.
 */
const CODES = new Set<string>(PROBLEM_CODE_VALUES);
/** The problem codes a description names (snake_case words that are codes). */
const codesIn = (text: string) => [...text.matchAll(/\b[a-z]+(?:_[a-z0-9]+)+\b/g)].map((m) => m[0]).filter((w) => CODES.has(w));

// Building an app documents every route (its database is never reached here).
const db = createDb('postgres://nobody@127.0.0.1:9/none', { max: 1 });
createApp({ config: loadConfig({ NODE_ENV: 'test' }), db, logger: createLogger('silent'), mailer: { enqueue: async () => undefined } });
afterAll(() => db.destroy());

describe('one status per problem code', () => {
  it('when the status table is read, then every code has exactly one status, and validation_failed is 400 while bulk row errors are 422 rows_invalid', () => {
    expect(Object.keys(PROBLEM_STATUS).sort()).toEqual([...CODES].sort());
    for (const status of Object.values(PROBLEM_STATUS)) expect(status).toBeGreaterThanOrEqual(400);
    expect(PROBLEM_STATUS.validation_failed).toBe(400);
    expect(PROBLEM_STATUS.rows_invalid).toBe(422);
  });

  it("when every route of the table documents its errors, then each code it names is documented under that code's one status, and every 422 names its code", () => {
    const seen = new Map<string, Set<number>>();
    const wrong: string[] = [];
    for (const r of routeTable) {
      for (const [status, answer] of Object.entries(r.def.errors ?? {})) {
        const text = typeof answer === 'string' ? answer : answer.description;
        const named = codesIn(text);
        if (Number(status) === 422 && !named.length) wrong.push(`${r.method.toUpperCase()} ${r.path} ${status}: names no code ("${text}")`);
        for (const code of named) {
          if (!seen.has(code)) seen.set(code, new Set());
          seen.get(code)!.add(Number(status));
          if (PROBLEM_STATUS[code as ProblemCode] !== Number(status))
            wrong.push(
              `${r.method.toUpperCase()} ${r.path}: ${code} documented as ${status}, its status is ${PROBLEM_STATUS[code as ProblemCode]}`,
            );
        }
      }
    }
    expect(wrong).toEqual([]);
    for (const [code, statuses] of seen) expect([code, [...statuses]]).toEqual([code, [PROBLEM_STATUS[code as ProblemCode]]]);
    expect(seen.size).toBeGreaterThan(20);
  });

  it('when the OpenAPI document is generated, then every problem response names only codes of its own status', () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string; content?: object }> }>>;
    };
    const wrong: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, res] of Object.entries(op.responses)) {
          if (!res.content || !('application/problem+json' in res.content)) continue;
          checked++;
          for (const code of codesIn(res.description))
            if (PROBLEM_STATUS[code as ProblemCode] !== Number(status)) wrong.push(`${method} ${path} ${status}: ${code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  });

  it('when the API source builds an AppError by hand, then only where it replays a stored answer', () => {
    const src = resolve(__dirname, '..');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? files(p) : /\.ts$/.test(f) && !/\.test\.ts$/.test(f) ? [p] : [];
      });
    const hand = files(src).filter((f) => /new AppError\(/.test(readFileSync(f, 'utf8')));
    expect(hand.map((f) => f.slice(src.length + 1))).toEqual(['modules/idempotency/idempotency.service.ts']);
  });
});
