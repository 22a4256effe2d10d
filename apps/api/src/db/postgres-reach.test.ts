import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { letPostgresReach } from './postgres-reach';

/**
 * A checkout inside a folder only root may enter (mktemp -d, mode 700): as root, the embedded database's
 * postgres user must still reach node_modules and .data, so that folder gets the search bit for others.
 */
describe('letPostgresReach', () => {
  let top: string;
  beforeEach(() => {
    top = mkdtempSync(join(tmpdir(), 'reach-'));
    chmodSync(top, 0o700);
    mkdirSync(join(top, 'portal/.data'), { recursive: true });
  });
  afterEach(() => rmSync(top, { recursive: true, force: true }));

  it('as root, gives a closed ancestor o+x (enter, not list) and leaves open ones alone', () => {
    if (process.getuid?.() !== 0) return; // only root runs PostgreSQL as another user
    const changed = letPostgresReach([join(top, 'portal/.data/pg/x')]);
    expect(changed).toEqual([top]);
    expect(statSync(top).mode & 0o777).toBe(0o701);
    expect(letPostgresReach([join(top, 'portal/.data/pg/x')])).toEqual([]);
  });

  it('as another user, changes nothing', () => {
    if (process.getuid?.() === 0) return;
    expect(letPostgresReach([join(top, 'portal/.data/pg/x')])).toEqual([]);
    expect(statSync(top).mode & 0o777).toBe(0o700);
  });
});
