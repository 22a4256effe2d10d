#!/usr/bin/env node
// House metrics (issue 25's before/after table): counts, per app, what the second floor of the house is
// judged by, from the production TypeScript (tests, test support and the fault harness excluded):
// files and lines, files over 400 lines, functions over 60 lines, component functions over 120 lines
// (web: a function whose name starts with a capital), query sites outside `*.repository.ts` (a call of
// db/trx/knex/tx/conn/q with a table name, or `.raw(`), casts (`as T`, not `as const`), `any`, non-null
// assertions (`x!`) and `process.env` reads outside config.ts.
// Usage: node scripts/house-metrics.mjs [repo-root] [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? process.cwd();
const asJson = process.argv.includes('--json');
const apps = { api: 'apps/api/src', web: 'apps/web/src', contracts: 'libs/contracts/src' };
const isTestFile = (p) =>
  /\.(test|spec)\.tsx?$/.test(p) || /(^|\/)test(-support)?\//.test(p) || /test-support\.ts$/.test(p) || /(^|\/)faults\//.test(p);
const queryCallees = new Set(['db', 'trx', 'knex', 'tx', 'conn', 'q', 'database']);

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function calleeName(expr) {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  return undefined;
}

function measure(app, dir) {
  const m = {
    files: 0,
    lines: 0,
    filesOver400: [],
    fnsOver60: 0,
    componentsOver120: [],
    querySitesOutsideRepos: 0,
    casts: 0,
    any: 0,
    nonNull: 0,
    processEnv: 0,
  };
  const bySite = {};
  for (const file of walk(join(root, dir))) {
    const rel = relative(root, file);
    if (isTestFile(rel)) continue;
    const text = readFileSync(file, 'utf8');
    const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const lineOf = (pos) => src.getLineAndCharacterOfPosition(pos).line;
    const lines = text.split('\n').length;
    m.files++;
    m.lines += lines;
    if (lines > 400) m.filesOver400.push(`${rel} (${lines})`);
    const isRepo = /\.repository\.ts$/.test(rel);
    const visit = (node) => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
        const t = node.type;
        if (!(ts.isTypeReferenceNode(t) && t.typeName.getText(src) === 'const')) m.casts++;
      }
      if (node.kind === ts.SyntaxKind.AnyKeyword) m.any++;
      if (ts.isNonNullExpression(node)) m.nonNull++;
      if (ts.isPropertyAccessExpression(node) && node.getText(src) === 'process.env' && !rel.endsWith('config.ts')) m.processEnv++;
      if (ts.isCallExpression(node) && !isRepo) {
        const name = calleeName(node.expression);
        const first = node.arguments[0];
        const tableCall =
          name && queryCallees.has(name) && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first));
        const rawCall =
          ts.isPropertyAccessExpression(node.expression) &&
          node.expression.name.text === 'raw' &&
          queryCallees.has(calleeName(node.expression.expression) ?? '');
        if (tableCall || rawCall) {
          m.querySitesOutsideRepos++;
          bySite[rel] = (bySite[rel] ?? 0) + 1;
        }
      }
      if (ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) {
        const span = lineOf(node.getEnd()) - lineOf(node.getStart(src)) + 1;
        if (span > 60) m.fnsOver60++;
        let name = node.name?.getText(src);
        if (!name && ts.isVariableDeclaration(node.parent)) name = node.parent.name.getText(src);
        if (app === 'web' && name && /^[A-Z]/.test(name) && span > 120) m.componentsOver120.push(`${rel}:${name} (${span})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  m.querySitesByFile = Object.fromEntries(Object.entries(bySite).sort((a, b) => b[1] - a[1]));
  return m;
}

const result = Object.fromEntries(Object.entries(apps).map(([app, dir]) => [app, measure(app, dir)]));
if (asJson) console.log(JSON.stringify(result, null, 2));
else {
  for (const [app, m] of Object.entries(result)) {
    console.log(
      `${app}: ${m.files} files, ${m.lines} lines; files > 400 lines: ${m.filesOver400.length}; functions > 60 lines: ${m.fnsOver60}` +
        (app === 'web' ? `; components > 120 lines: ${m.componentsOver120.length}` : '') +
        `; query sites outside repositories: ${m.querySitesOutsideRepos}; casts: ${m.casts}; any: ${m.any}; non-null: ${m.nonNull}; process.env outside config.ts: ${m.processEnv}`,
    );
    for (const f of m.filesOver400) console.log(`  over 400 lines: ${f}`);
    for (const c of m.componentsOver120) console.log(`  component over 120 lines: ${c}`);
    for (const [f, n] of Object.entries(m.querySitesByFile)) console.log(`  query sites: ${f} ${n}`);
  }
}
