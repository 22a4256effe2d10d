import { loadConfig } from '../config';
import { createDb } from './knex';

/** DATABASE_POOL_MAX sizes the API's own knex pool per process (README "Operating it", pool sizing). */
describe('DATABASE_POOL_MAX', () => {
  it('when unset, then the pool holds at most 20 connections; when set, that many', async () => {
    expect(loadConfig({}).databasePoolMax).toBe(20);
    const config = loadConfig({ DATABASE_POOL_MAX: '7' });
    expect(config.databasePoolMax).toBe(7);
    const db = createDb('postgres://nobody@127.0.0.1:1/none', { max: config.databasePoolMax });
    expect((db.client as { pool: { max: number } }).pool.max).toBe(7);
    await db.destroy();
  });

  it('when it is not a whole number from 2 to 500, then the configuration is refused with its name', () => {
    for (const bad of ['1', '0', 'many', '2.5', '501']) expect(() => loadConfig({ DATABASE_POOL_MAX: bad })).toThrow(/DATABASE_POOL_MAX/);
  });
});
