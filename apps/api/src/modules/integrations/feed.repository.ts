import type { Db } from '../../db/knex';

/** The order feed's identity and extent (issue 23 §4): knex only. */

/** The stored feed_id and whether its fingerprint is the live one (feed_fingerprint()); undefined when the row is gone. */
export async function readFeedIdentity(db: Db): Promise<{ feedId: string; same: boolean } | undefined> {
  const { rows } = await db.raw(`SELECT feed_id::text AS "feedId", fingerprint = feed_fingerprint() AS same FROM feed_identity`);
  return rows[0];
}

/** Locks feed_identity until the transaction ends (one renewal at a time, across processes). */
export async function lockFeedIdentity(trx: Db): Promise<void> {
  await trx.raw('LOCK TABLE feed_identity IN EXCLUSIVE MODE');
}

/** Stores a new random feed_id with the live fingerprint; returns it. */
export async function renewFeedIdentity(trx: Db): Promise<string> {
  const { rows } = await trx.raw(
    `INSERT INTO feed_identity (singleton, feed_id, fingerprint, made_at) VALUES (true, gen_random_uuid(), feed_fingerprint(), now())
     ON CONFLICT (singleton) DO UPDATE SET feed_id = EXCLUDED.feed_id, fingerprint = EXCLUDED.fingerprint, made_at = now()
     RETURNING feed_id::text AS "feedId"`,
  );
  return rows[0].feedId as string;
}

/**
 * The newest seq ever drawn for an event (the seq sequence's last value; 0 before the first): no cursor
 * handed out can be past it, even when the newest events were deleted since.
 */
export async function newestSeq(db: Db): Promise<number> {
  const { rows } = await db.raw(`SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('order_events', 'seq')), 0)::text AS seq`);
  return Number(rows[0].seq);
}
