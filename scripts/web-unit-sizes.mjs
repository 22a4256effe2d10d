// `node scripts/web-unit-sizes.mjs [--list]`: sizes of the web's production units (issue 25 item 4), read with the
// TypeScript compiler API from apps/web/src (no tests, no test/ helpers). Counts components and hooks (functions
// named Upper… or use…) over 120 lines, all functions over 60 lines, and files over 400 lines; --list names them.
// ESLint enforces the first and the last (max-lines-per-function 120, max-lines 400 in eslint.config.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', 'apps/web/src');
const list = process.argv.includes('--list');
const files = [];
(function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'test') walk(p);
    } else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$|\.d\.ts$/.test(e.name)) files.push(p);
  }
})(root);

const isFn = (n) => n && (ts.isArrowFunction(n) || ts.isFunctionExpression(n));
/** The name of a function-like declaration (a `const X = forwardRef(() => …)` counts as X), or undefined. */
function nameOf(n) {
  if (ts.isFunctionDeclaration(n) && n.name) return n.name.text;
  if (ts.isMethodDeclaration(n) && ts.isIdentifier(n.name)) return n.name.text;
  if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) {
    const init = n.initializer;
    if (isFn(init) || (ts.isCallExpression(init) && init.arguments.some(isFn))) return n.name.text;
  }
  return undefined;
}

const units = [];
const bigFiles = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > 400) bigFiles.push([lines, relative(root, file)]);
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (n) => {
    const name = nameOf(n);
    if (name) {
      const start = sf.getLineAndCharacterOfPosition(n.getStart()).line;
      const end = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      units.push({ name, lines: end - start + 1, where: `${relative(root, file)}:${start + 1}`, component: /^[A-Z]|^use/.test(name) });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}

const byLines = (a, b) => b.lines - a.lines;
const components = units.filter((u) => u.component && u.lines > 120).sort(byLines);
const functions = units.filter((u) => u.lines > 60).sort(byLines);
console.log(
  `components/hooks >120 lines: ${components.length}; functions >60 lines: ${functions.length}; files >400 lines: ${bigFiles.length}`,
);
if (list) {
  for (const [title, rows] of [
    ['components/hooks >120', components],
    ['functions >60', functions],
  ]) {
    console.log(`-- ${title}`);
    for (const u of rows) console.log(`${u.lines}\t${u.where} ${u.name}`);
  }
  console.log('-- files >400');
  for (const [n, f] of bigFiles.sort((a, b) => b[0] - a[0])) console.log(`${n}\t${f}`);
}
