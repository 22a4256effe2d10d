import { z } from 'zod';
import { randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/**
 * Environment → typed config, parsed once at boot (ARCHITECTURE §1). Nothing else reads process.env.
 * Refuses to start on an unsafe production config (missing secrets, weak bcrypt cost).
 */
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * Is this secret a repetition rather than random (issue 23 §7)? True when it has fewer than 8 distinct
 * characters ('x' × 40, 'abab…') or repeats a unit of at most 16 characters ('0123456789abcdef' twice).
 * A random 32-character hex or base64 secret is neither (8 or fewer distinct characters in 32 random hex
 * digits: about 1 in 30 million).
 */
export function isRepetitive(secret: string): boolean {
  if (new Set(secret).size < 8) return true;
  for (let period = 1; period <= 16 && period < secret.length; period++) {
    let repeats = true;
    for (let i = period; i < secret.length && repeats; i++) repeats = secret[i] === secret[i - period];
    if (repeats) return true;
  }
  return false;
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  // Connections of the API's own knex pool per process (the job queues and the LISTEN connection add 12).
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(20),
  DATA_DIR: z.string().default('.data'),
  WEB_DIR: z.string().default('dist/web'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).optional(),
  SHARED_DATA_DIR: z.string().default('data/iowa-abd'),
  JWT_SECRET: z
    .string()
    .min(32, 'JWT_SECRET must be at least 32 characters')
    .refine((v) => !isRepetitive(v), 'JWT_SECRET repeats a few characters: use 32 random bytes (openssl rand -hex 32)')
    .optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(900),
  REFRESH_IDLE_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(7 * 24 * 3600),
  REFRESH_ABSOLUTE_LIFETIME_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(30 * 24 * 3600),
  REFRESH_REUSE_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(10).default(10),
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
  CORS_ORIGINS: z.string().default(''),
  PUBLIC_URL: z.string().default(''),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Liquor Portal <no-reply@portal.local>'),
  PAYMENT_TEST_MODE: bool.optional(),
  PAYMENT_CREDENTIALS_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'PAYMENT_CREDENTIALS_KEY must be 64 hex characters')
    .optional(),
  MONETRA_URL: z.string().optional(),
  PAYMENT_ENVIRONMENT: z.enum(['test', 'prod']).optional(),
  MONETRA_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120000).default(30000),
  // Settlement: a card order pending longer than this is settled by a gateway lookup; an
  // Idempotency-Key held by a request that died is taken over after its lease; the reconciler's cron.
  PAYMENT_SETTLE_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  IDEMPOTENCY_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  PAYMENT_RECONCILE_CRON: z.string().default('* * * * *'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** `pretty`: short human lines (a terminal's default outside production); `json`: one JSON object a line. */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  DEMO_PASSWORD: z.string().default('Portal#2026'),
  // Demo accounts, outlets and orders on first start: only when asked; `npm start` in development asks.
  SEED_DEMO: bool.default(false),
  TRUST_PROXY: z.string().default('loopback'),
  JOBS_ENABLED: bool.default(true),
  // Brute-force and mail-abuse limits.
  AUTH_ACCOUNT_FAILED_LOGIN_LIMIT: z.coerce.number().int().min(1).default(10),
  AUTH_IP_FAILED_LOGIN_LIMIT: z.coerce.number().int().min(1).default(100),
  AUTH_RECOVERY_EMAIL_LIMIT: z.coerce.number().int().min(1).default(5),
  AUTH_RECOVERY_IP_LIMIT: z.coerce.number().int().min(1).default(20),
  // Lockout policy (README "Sign-in limits"): failures lock an account + IP pair; past the
  // per-account ceiling, unknown IPs get one attempt per interval; every sign-in attempt counts per IP.
  AUTH_ACCOUNT_FAILED_LOGIN_CEILING: z.coerce.number().int().min(1).default(50),
  AUTH_ACCOUNT_SLOW_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(10),
  AUTH_IP_LOGIN_LIMIT: z.coerce.number().int().min(1).default(300),
  // /metrics bearer token: required when set; without it production does not serve /metrics.
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  // Janitors: cron of the cleanup run, and how long audit rows are kept.
  JANITOR_CRON: z.string().default('23 * * * *'),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(30).default(400),
  // Mail outbox retries (ARCHITECTURE §7): exponential backoff from the delay, capped at the max.
  MAIL_RETRY_LIMIT: z.coerce.number().int().min(0).default(20),
  MAIL_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(5),
  MAIL_RETRY_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).default(900),
  MAIL_POLL_SECONDS: z.coerce.number().min(0.5).default(1),
  // While mail waits for a retry, SMTP is probed this often; once it answers, the waiting mail goes at once.
  MAIL_SMTP_PROBE_SECONDS: z.coerce.number().min(0.5).max(300).default(30),
  // Uploaded imports run in a child process with this heap limit (a hostile file fails its run, not the API).
  IMPORT_MEMORY_MB: z.coerce.number().int().min(128).max(16384).default(512),
  // Requests per minute per API key, all routes and processes together (README "Warehouse integrations"):
  // 3,000 lets a board push every store's inventory (2,003 requests for Iowa's 545,495 rows) in one minute.
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(3000),
  // The order feed in memory (README "Warehouse integrations"): MB of event texts kept, and how many of the
  // newest events the index holds by store and board.
  FEED_CACHE_MB: z.coerce.number().int().min(1).default(32),
  FEED_INDEX_EVENTS: z.coerce.number().int().min(1000).default(200_000),
  /** GET /me/events (issue 26 §7): seconds between heartbeat comments (spec 000 §9: 25). */
  LIVE_HEARTBEAT_SECONDS: z.coerce.number().positive().max(300).default(25),
  /** GET /me/events: longest life of one stream in seconds; the client reconnects with Last-Event-ID. */
  LIVE_STREAM_MAX_SECONDS: z.coerce.number().positive().max(86_400).default(3600),
  /** GET /me/events without LISTEN/NOTIFY (tests, or while the listener is down): seconds between feed reads. */
  LIVE_POLL_SECONDS: z.coerce.number().positive().max(300).default(5),
  // Comma-separated hosts production lets webhooks reach although private or loopback (the SSRF guard's exceptions).
  WEBHOOK_ALLOW_HOSTS: z.string().default(''),
  // How long the catalog routes reuse a user's loaded permissions (ms): a revocation applies there within it.
  CATALOG_PRINCIPAL_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  // How long every other signed-in route reuses a user's loaded principal (ms), only while the notification
  // listener is connected: a change is applied by the next request of this process and on its notification by
  // the others (issue 29 §1). 0: loaded on every request.
  PRINCIPAL_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
});

export type Config = ReturnType<typeof loadConfig>;

/**
 * Parses `env` into the config; throws with every problem listed when it is unusable. An empty variable
 * counts as unset (its default applies), as Compose passes an optional `${VAR:-}` that nobody set.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production) {
    const missing = [
      !e.JWT_SECRET && 'JWT_SECRET',
      !e.DATABASE_URL && 'DATABASE_URL',
      !e.PAYMENT_CREDENTIALS_KEY && 'PAYMENT_CREDENTIALS_KEY',
    ].filter(Boolean);
    if (missing.length) throw new Error(`Refusing to start in production without ${missing.join(', ')}`);
    if (e.BCRYPT_COST < 12) throw new Error('Refusing to start in production with BCRYPT_COST below 12');
    // No fake payments and no demo data in production.
    if (e.PAYMENT_TEST_MODE)
      throw new Error(
        'Refusing to start in production with PAYMENT_TEST_MODE=true (test payments mark orders paid while no money moves): unset it or set PAYMENT_TEST_MODE=false',
      );
    if (e.SEED_DEMO)
      throw new Error('Refusing to start in production with SEED_DEMO=true (demo accounts have a public password): unset it');
  }
  return {
    env: e.NODE_ENV,
    production,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    dataDir: e.DATA_DIR,
    webDir: e.WEB_DIR,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    sharedDataDir: e.SHARED_DATA_DIR,
    // Development without a secret gets a random one per process: sessions end on restart, never a known key.
    jwtSecret: e.JWT_SECRET ?? randomBytes(32).toString('hex'),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshIdleTimeoutSeconds: e.REFRESH_IDLE_TIMEOUT_SECONDS,
    refreshAbsoluteLifetimeSeconds: e.REFRESH_ABSOLUTE_LIFETIME_SECONDS,
    refreshReuseIntervalSeconds: e.REFRESH_REUSE_INTERVAL_SECONDS,
    bcryptCost: e.BCRYPT_COST,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    publicUrl: e.PUBLIC_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    // Off unless asked (spec 002 §9 'Test mode off by default'); `npm start` in development asks.
    paymentTestMode: e.PAYMENT_TEST_MODE ?? false,
    paymentCredentialsKey: e.PAYMENT_CREDENTIALS_KEY ?? (production ? '' : '0'.repeat(64)),
    monetraUrl: e.MONETRA_URL,
    // Which payment_credentials rows (environment test|prod) the Monetra gateway uses.
    paymentEnvironment: e.PAYMENT_ENVIRONMENT ?? (production ? 'prod' : 'test'),
    monetraTimeoutMs: e.MONETRA_TIMEOUT_MS,
    paymentSettleAfterSeconds: e.PAYMENT_SETTLE_AFTER_SECONDS,
    idempotencyLeaseSeconds: e.IDEMPOTENCY_LEASE_SECONDS,
    paymentReconcileCron: e.PAYMENT_RECONCILE_CRON,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV !== 'production' && process.stdout.isTTY ? 'pretty' : 'json'),
    demoPassword: e.DEMO_PASSWORD,
    seedDemo: e.SEED_DEMO,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    jobsEnabled: e.JOBS_ENABLED,
    authAccountFailedLoginLimit: e.AUTH_ACCOUNT_FAILED_LOGIN_LIMIT,
    authIpFailedLoginLimit: e.AUTH_IP_FAILED_LOGIN_LIMIT,
    authRecoveryEmailLimit: e.AUTH_RECOVERY_EMAIL_LIMIT,
    authRecoveryIpLimit: e.AUTH_RECOVERY_IP_LIMIT,
    authAccountFailedLoginCeiling: e.AUTH_ACCOUNT_FAILED_LOGIN_CEILING,
    authAccountSlowIntervalSeconds: e.AUTH_ACCOUNT_SLOW_INTERVAL_SECONDS,
    authIpLoginLimit: e.AUTH_IP_LOGIN_LIMIT,
    metricsToken: e.METRICS_TOKEN,
    janitorCron: e.JANITOR_CRON,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    mailRetryLimit: e.MAIL_RETRY_LIMIT,
    mailRetryDelaySeconds: e.MAIL_RETRY_DELAY_SECONDS,
    mailRetryDelayMaxSeconds: e.MAIL_RETRY_DELAY_MAX_SECONDS,
    mailPollSeconds: e.MAIL_POLL_SECONDS,
    mailSmtpProbeSeconds: e.MAIL_SMTP_PROBE_SECONDS,
    importMemoryMb: e.IMPORT_MEMORY_MB,
    apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT_PER_MINUTE,
    feedCacheMb: e.FEED_CACHE_MB,
    feedIndexEvents: e.FEED_INDEX_EVENTS,
    liveHeartbeatMs: e.LIVE_HEARTBEAT_SECONDS * 1000,
    liveStreamMaxMs: e.LIVE_STREAM_MAX_SECONDS * 1000,
    livePollMs: e.LIVE_POLL_SECONDS * 1000,
    webhookAllowHosts: e.WEBHOOK_ALLOW_HOSTS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    catalogPrincipalCacheMs: e.CATALOG_PRINCIPAL_CACHE_MS,
    principalCacheMs: e.PRINCIPAL_CACHE_MS,
  };
}

/**
 * TRUST_PROXY → the value for express's `trust proxy` setting: `false`/empty (trust nobody), a hop
 * count (`1`), or a comma list of addresses, subnets and the names loopback, linklocal, uniquelocal.
 * `true` (trust every hop) is refused: anyone could then choose their own address. Throws when invalid.
 */
export function parseTrustProxy(value: string): false | number | string {
  const v = value.trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (v === 'true') throw new Error('TRUST_PROXY=true would trust every X-Forwarded-For hop; give a hop count or the proxy addresses');
  for (const part of v.split(',').map((s) => s.trim())) {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(part)) continue;
    const [addr, bits] = part.split('/');
    if (!ipaddr.isValid(addr) || (bits !== undefined && !/^\d+$/.test(bits) && !ipaddr.isValid(bits))) {
      throw new Error(`TRUST_PROXY: "${part}" is not an address, subnet, or loopback/linklocal/uniquelocal`);
    }
  }
  return v;
}
