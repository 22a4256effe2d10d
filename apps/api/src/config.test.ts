import { randomBytes } from 'node:crypto';
import { isRepetitive, loadConfig } from './config';

/** Config refuses what is unsafe (issue 23 §7): a JWT_SECRET that repeats a few characters is no secret. */
const BASE = { NODE_ENV: 'test', DATABASE_URL: 'postgres://x@127.0.0.1/x' } as const;

describe('JWT_SECRET', () => {
  it.each([
    ['one character 40 times', 'x'.repeat(40)],
    ['two characters alternating', 'ab'.repeat(20)],
    ['a 16-character unit twice', '0123456789abcdef'.repeat(2)],
    ['a short unit with a tail', 'secret'.repeat(6) + 'sec'],
  ])('when it is %s, then the config is refused naming JWT_SECRET', (_what, secret) => {
    expect(() => loadConfig({ ...BASE, JWT_SECRET: secret })).toThrow(/JWT_SECRET: JWT_SECRET repeats a few characters/);
    expect(() => loadConfig({ ...BASE, NODE_ENV: 'production', JWT_SECRET: secret, PAYMENT_CREDENTIALS_KEY: 'ab'.repeat(32) })).toThrow(
      /JWT_SECRET repeats/,
    );
  });

  it('when it is random (openssl rand -hex 32, base64 of 32 bytes) or a long passphrase, then it is taken', () => {
    for (let i = 0; i < 200; i++) expect(isRepetitive(randomBytes(16).toString('hex'))).toBe(false);
    expect(loadConfig({ ...BASE, JWT_SECRET: randomBytes(32).toString('hex') }).jwtSecret).toHaveLength(64);
    expect(loadConfig({ ...BASE, JWT_SECRET: randomBytes(32).toString('base64') }).jwtSecret).toHaveLength(44);
    expect(loadConfig({ ...BASE, JWT_SECRET: 'test-secret-that-is-at-least-32-characters-long' }).jwtSecret).toBeTruthy();
  });
});

/** The environment → config rules the deployment files rely on (issue 24 §5). */
describe('loadConfig', () => {
  it('when optional settings are empty (Compose passing an unset ${VAR:-}), then their defaults apply instead of a refusal', () => {
    const config = loadConfig({
      METRICS_TOKEN: '',
      JWT_SECRET: '',
      PAYMENT_CREDENTIALS_KEY: '',
      BCRYPT_COST: '',
      LOG_FORMAT: '',
      MONETRA_URL: '',
    });
    expect(config.metricsToken).toBeUndefined();
    expect(config.bcryptCost).toBe(12);
    expect(config.jwtSecret).toHaveLength(64);
    expect(config.monetraUrl).toBeUndefined();
  });

  it('when production gets an empty secret, then it is refused as missing', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', JWT_SECRET: '', PAYMENT_CREDENTIALS_KEY: '' }),
    ).toThrow('Refusing to start in production without JWT_SECRET, PAYMENT_CREDENTIALS_KEY');
  });
});
