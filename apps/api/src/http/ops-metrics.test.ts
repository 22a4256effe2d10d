import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { createTestContext, type TestContext } from '../test/harness';

/**
 * ops/ (issue 24 §6): the Prometheus alert rules load in promtool (`check rules`, and its unit tests of the
 * alerts pass), and every metric the rules and the Grafana dashboard name is one this API exposes at
 * /metrics. promtool comes with Debian's `prometheus` package; CI installs it (.ci/run, the workflow).
 */
const OPS = resolve(__dirname, '../../../../ops');
const RULES = join(OPS, 'prometheus/alerts.yml');
const RULE_TESTS = join(OPS, 'prometheus/alerts.test.yml');
const DASHBOARD = join(OPS, 'grafana/portal-dashboard.json');
/** Series Prometheus makes itself, not the API. */
const PROMETHEUS_OWN = new Set(['up']);

const PROMTOOL = process.env.PROMTOOL ?? 'promtool';
const promtoolFound = spawnSync(PROMTOOL, ['--version'], { encoding: 'utf8' }).status === 0;
const MISSING =
  `promtool not found (${PROMTOOL}): install Debian's prometheus package (apt-get install -y prometheus), ` +
  `Homebrew's prometheus, or set PROMTOOL=/path/to/promtool`;
if (!promtoolFound && !process.env.CI) console.warn(`${MISSING}; the promtool checks of ops/prometheus are skipped outside CI.`);

/** The PromQL expressions of the alert rules (`expr:` values, block scalars included). */
export function ruleExpressions(yaml: string): string[] {
  const lines = yaml.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (!m) return;
    if (m[2] !== '|' && m[2] !== '>') return void out.push(m[2]);
    const block: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j].trim() === '' || lines[j].search(/\S/) > m[1].length); j++)
      block.push(lines[j].trim());
    out.push(block.join(' '));
  });
  return out;
}

/** The PromQL expressions of the dashboard's panels. */
function dashboardExpressions(json: string): string[] {
  const dash = JSON.parse(json) as { panels: { targets?: { expr: string }[] }[] };
  return dash.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

/**
 * The metric names an expression reads: its identifiers less strings, label matchers and groupings, range
 * and offset brackets, function calls, keywords and numbers.
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\boffset\s+-?[\dsmhdwy]+/gi, ' ')
    .replace(/\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const keywords = new Set([
    'and',
    'or',
    'unless',
    'bool',
    'offset',
    'by',
    'without',
    'on',
    'ignoring',
    'group_left',
    'group_right',
    'inf',
    'nan',
  ]);
  return [...bare.matchAll(/([a-zA-Z_:][\w:]*)(\s*\()?/g)]
    .filter((m) => !m[2] && !keywords.has(m[1].toLowerCase()))
    .map((m) => m[1])
    .filter((n) => !/^\d/.test(n));
}

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

/** Every series name /metrics can answer: each family's name, and a histogram's or summary's parts. */
async function exposedNames(): Promise<Set<string>> {
  const text = (await request(t.app).get('/metrics')).text;
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\w+)$/gm)) {
    names.add(m[1]);
    if (m[2] === 'histogram') for (const s of ['_bucket', '_count', '_sum']) names.add(m[1] + s);
    if (m[2] === 'summary') for (const s of ['_count', '_sum']) names.add(m[1] + s);
  }
  return names;
}

describe('ops/ alert rules and dashboard', () => {
  it('when the expression reader is given PromQL, then it finds the metric names and nothing else', () => {
    expect(
      metricNames(
        'sum by (route, le) (rate(http_request_duration_seconds_bucket{job="portal",status=~"5.."}[5m])) / clamp_min(sum(rate(up[5m])), 1e-9) > 0.02 and portal_db_pool_waiting offset 5m',
      ),
    ).toEqual(['http_request_duration_seconds_bucket', 'up', 'portal_db_pool_waiting']);
    expect(ruleExpressions('  - alert: A\n    expr: |\n      sum(x)\n        / y\n    for: 1m\n  - alert: B\n    expr: z > 1\n')).toEqual([
      'sum(x) / y',
      'z > 1',
    ]);
  });

  it('when the rules and the dashboard are read, then every metric they use is one the API exposes, and every business metric is used', async () => {
    const exprs = [...ruleExpressions(readFileSync(RULES, 'utf8')), ...dashboardExpressions(readFileSync(DASHBOARD, 'utf8'))];
    expect(exprs.length).toBeGreaterThan(20);
    const used = new Set(exprs.flatMap(metricNames));
    const exposed = await exposedNames();
    const unknown = [...used].filter((n) => !exposed.has(n) && !PROMETHEUS_OWN.has(n));
    expect(unknown).toEqual([]);
    // And the other way round: no business metric is left without a panel or a rule.
    const business = [...exposed].filter((n) => n.startsWith('portal_'));
    expect(business.filter((n) => !used.has(n))).toEqual([]);
  });

  (promtoolFound ? it : it.skip)('when promtool checks the rules and runs their unit tests, then both succeed', () => {
    const check = spawnSync(PROMTOOL, ['check', 'rules', RULES], { encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toMatch(/SUCCESS: \d+ rules found/);
    expect(check.status).toBe(0);
    const unit = spawnSync(PROMTOOL, ['test', 'rules', RULE_TESTS], { encoding: 'utf8' });
    expect(`${unit.stdout}${unit.stderr}`).toContain('SUCCESS');
    expect(unit.status).toBe(0);
  });

  it('when this runs in CI, then promtool is installed', () => {
    if (!process.env.CI) return;
    if (!promtoolFound) throw new Error(MISSING);
  });
});
