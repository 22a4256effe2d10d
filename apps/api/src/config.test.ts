import { loadConfig } from './config';

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
