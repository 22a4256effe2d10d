import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrationSource } from '@portal/migrations';

/** migrations/index.ts is a hand-kept list (bundled into the API): a file left out of it would never run. */
describe('migrations/index.ts', () => {
  it('when the migrations folder is read, then every migration file is listed once and every listed name is a file', async () => {
    const dir = join(__dirname, '../../../../migrations');
    const files = readdirSync(dir)
      .filter((f) => /^\d{14,}_[a-z0-9_]+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''));
    const listed = await migrationSource.getMigrations([]);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...files].sort());
  });
});
