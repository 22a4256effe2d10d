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
  const { rows } = await trx.raw<{ rows: { feedId: string }[] }>(
    `INSERT INTO feed_identity (singleton, feed_id, fingerprint, made_at) VALUES (true, gen_random_uuid(), feed_fingerprint(), now())
     ON CONFLICT (singleton) DO UPDATE SET feed_id = EXCLUDED.feed_id, fingerprint = EXCLUDED.fingerprint, made_at = now()
     RETURNING feed_id::text AS "feedId"`,
  );
  return rows[0].feedId;
}

/**
 * The newest seq ever drawn for an event (the seq sequence's last value; 0 before the first): no cursor
 * handed out can be past it, even when the newest events were deleted since.
 */
export async function newestSeq(db: Db): Promise<number> {
  const { rows } = await db.raw(`SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('order_events', 'seq')), 0)::text AS seq`);
  return Number(rows[0].seq);
}

/** Which events a key sees: its store's, or its board's stores'. */
export interface FeedScope {
  storeId: number | null;
  boardId: number | null;
}

/**
 * The seqs of scope `s`'s events after `after` up to the feed's horizon, ascending, at most `limit` (one
 * round trip: order_events_after(), the horizon then one index scan of order_events).
 */
export async function pageSeqs(db: Db, s: FeedScope, after: number, limit: number): Promise<number[]> {
  const { rows } = await db.raw<{ rows: { seq: string }[] }>(`SELECT seq::text FROM order_events_after(?, ?, ?, ?)`, [
    after,
    limit,
    s.storeId,
    s.storeId ? null : s.boardId,
  ]);
  return rows.map((r) => Number(r.seq));
}

/**
 * The feed texts (`,{"seq","type","occurredAt","order"}`: the list comma first) of the events `seqs`, by seq;
 * an event not found (deleted) is absent. `itemJsonSql` computes the text of a row stored without one.
 */
export async function readEventTexts(db: Db, seqs: readonly number[], itemJsonSql: string): Promise<Map<number, string>> {
  const { rows } = await db.raw<{ rows: { seq: string; item: string }[] }>(
    `SELECT e.seq, ',' || coalesce(e.item_json, ${itemJsonSql}) AS item FROM order_events e WHERE e.seq = ANY(?)`,
    [[...seqs]],
  );
  return new Map(rows.map((r) => [Number(r.seq), r.item]));
}

/** Every store's board (the FeedIndex's board scopes). */
export async function storeBoards(db: Db): Promise<{ id: number; board_id: number }[]> {
  return db('stores').select('id', 'board_id');
}

/** One event's place in the feed: its seq and store. */
export interface SeqStore {
  seq: number;
  store_id: number;
}

/**
 * The newest `count` events up to `horizon` (seq and store), oldest first: `horizon` is the feed's (orders.service
 * feedHorizon), read in an earlier statement, so no event that commits afterwards is passed.
 */
export async function newestEvents(db: Db, horizon: number, count: number): Promise<SeqStore[]> {
  const { rows } = await db.raw<{ rows: { seq: string; store_id: number }[] }>(
    `SELECT e.seq::text AS seq, e.store_id FROM (SELECT seq, store_id FROM order_events WHERE seq <= ? ORDER BY seq DESC LIMIT ?) e ORDER BY e.seq`,
    [horizon, count],
  );
  return rows.map((r) => ({ seq: Number(r.seq), store_id: r.store_id }));
}

/** The events (seq and store) after `after` up to the feed's horizon, oldest first, at most `limit` (one round trip). */
export async function eventsAfter(db: Db, after: number, limit: number): Promise<SeqStore[]> {
  const { rows } = await db.raw<{ rows: { seq: string; store_id: number }[] }>(
    `SELECT seq::text AS seq, store_id FROM order_events_after(?, ?)`,
    [after, limit],
  );
  return rows.map((r) => ({ seq: Number(r.seq), store_id: r.store_id }));
}
