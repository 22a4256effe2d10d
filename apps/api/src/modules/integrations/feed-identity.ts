import type { Db } from '../../db/knex';
import * as repo from './feed.repository';

/**
 * The order feed's identity (issue 23 §4): a random `feedId` made when the database is created, and made
 * again when it is restored, answered with every page; a cursor of another feedId is refused (409
 * feed_reset), so an integrator sees a restore instead of silently skipping the events whose seqs are
 * handed out again.
 *
 * How a restore is seen: the row in `feed_identity` keeps the fingerprint of the database it was made in
 * (migration 2026113000020003): the database's oid, the table's own oid and the WAL timeline. A restored
 * dump lands in a new database (new oid) or recreates the table (new table oid); a physical or
 * point-in-time restore, or a promoted standby, runs on a new timeline. Values inside the data would not
 * do (a dump carries them along); these three are the server's, and change with the restore. What it
 * costs: a promotion after a failover also renews the feedId (an asynchronous standby may indeed have lost
 * the newest events), and so does a major-version upgrade with pg_upgrade (a new cluster starts on timeline
 * 1). What it misses: a restore of the data alone (`pg_restore --data-only`) into the same, emptied tables.
 *
 * Each process checks the fingerprint at most every `maxAgeMs` (5 s; one query of well under a millisecond);
 * when it made a new feedId, `onChange` listeners run (the feed's index and text cache are rebuilt).
 */
export class FeedIdentity {
  private current?: { feedId: string; checkedAt: number };
  private checking?: Promise<string>;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs = 5000,
  ) {}

  /** The current feedId (checked against the live fingerprint at most every maxAgeMs). */
  feedId(): Promise<string> {
    if (this.current && Date.now() - this.current.checkedAt < this.maxAgeMs) return Promise.resolve(this.current.feedId);
    this.checking ??= this.check().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /** Calls `listener` whenever this process sees the feedId change (a restore). Returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Makes the next call check the fingerprint again (the id it had stays known, so a change is still told). */
  invalidate(): void {
    if (this.current) this.current.checkedAt = 0;
  }

  private async check(): Promise<string> {
    const feedId = await ensureFeedIdentity(this.db);
    const before = this.current?.feedId;
    this.current = { feedId, checkedAt: Date.now() };
    if (before && before !== feedId) {
      for (const listener of this.listeners) {
        try {
          listener();
        } catch {
          // A cache's listener failing is not the feed's problem.
        }
      }
    }
    return feedId;
  }
}

const identities = new WeakMap<Db, FeedIdentity>();

/** The FeedIdentity of `db` (one per knex instance, so its cache is shared by every request of the process). */
export function feedIdentityFor(db: Db): FeedIdentity {
  let identity = identities.get(db);
  if (!identity) identities.set(db, (identity = new FeedIdentity(db)));
  return identity;
}

/**
 * The feed_id of this database: the stored one while its fingerprint is the live one, else (restored,
 * recreated, no row) a new random one stored with the live fingerprint, under a table lock so that every
 * process agrees on it.
 */
export async function ensureFeedIdentity(db: Db): Promise<string> {
  const row = await repo.readFeedIdentity(db);
  if (row?.same) return row.feedId;
  return db.transaction(async (trx) => {
    await repo.lockFeedIdentity(trx);
    const again = await repo.readFeedIdentity(trx);
    if (again?.same) return again.feedId;
    return repo.renewFeedIdentity(trx);
  });
}
