import { PROBLEM_CODES, type OrderDetail } from '@portal/contracts';
import type { Db } from '../../db/knex';
import type { ApiKeyPrincipal } from '../access/api-keys';
import { BadRequestError, ConflictError, NotFoundError } from '../../http/errors';
import { keyReaches } from '../access/access.service';
import { transition, ORDER_EVENT_ITEM_JSON, type SettleDeps } from '../orders/orders.service';
import type { FeedReader } from '../../context';
import { eventTexts } from './feed-index';
import { feedSourceOf } from './feed-source';
import { feedIdentityFor } from './feed-identity';
import { readEventTexts } from './feed.repository';
import * as repo from './integrations.repository';

/**
 * Warehouse integrations (ARCHITECTURE §10, issue 14 §§2–4): API keys managed by administrators, the
 * bulk inventory upsert, the order event feed and order status updates by API-key principals. The feed and the
 * status updates are here; API keys are in api-keys.service.ts and the bulk upserts in bulk-upserts.service.ts,
 * both re-exported so the routes use this service alone.
 */

export { INTEGRATION_ADMIN_CODES, assertScope } from '../access/integration-scope';
export { listApiKeys, createApiKey, revokeApiKey } from './api-keys.service';
export {
  upsertInventory,
  upsertItems,
  assertCatalogKey,
  type InventoryRow,
  type ItemRow,
  type RowError,
  type UpsertOptions,
  type UpsertResult,
} from './bulk-upserts.service';

/**
 * GET /integrations/order-events: events of the key's stores after `after` (seq), oldest first, at most
 * `limit`, as the answer's JSON bytes in order (`parts`, `length` bytes in all):
 * `{"items":[{ seq, type, occurredAt, order }],"nextAfter":N,"feedId":"…"}`. The page's seqs come from the
 * FeedSource (feed-source.ts): `index` when it can answer (a page within its window; the tail while it has
 * read in every announced event: no query), otherwise the feed's horizon and one index scan of `order_events`
 * (gap-free: no read passes the horizon); each event's text
 * (with its list comma) from the cache or, on a miss, its stored `item_json`. A page of 100 events (≈ 120 KB)
 * is thus a list of stored bytes, never built, parsed, re-serialised or copied into one buffer. `nextAfter` resumes (the last seq, or `after` on an empty
 * page); an event deleted in between (its store removed) is left out.
 * `feedId` (feed-identity.ts) names the feed the seqs belong to; a cursor sent with another `feedId` → 409
 * `feed_reset` (the database was restored: seqs may be handed out again), and an empty page whose `after`
 * is past the newest seq ever drawn → 400 `cursor_ahead`; both answers carry `newestSeq` and `feedId`. The
 * newest seq is asked of the database only then, and only when `after` is past what the index holds.
 */
export async function orderEvents(
  db: Db,
  key: ApiKeyPrincipal,
  after: number,
  limit: number,
  index?: FeedReader,
  cursorFeedId?: string,
): Promise<{ parts: Buffer[]; length: number; nextAfter: number; feedId: string }> {
  const source = feedSourceOf(db, index);
  const feedId = await feedIdentityFor(db).feedId();
  if (cursorFeedId !== undefined && cursorFeedId !== feedId) {
    throw new ConflictError(
      `This cursor belongs to another feed (${cursorFeedId}): the database was restored or recreated, so seqs may have been handed out again. Read the feed again from after=0 (or from the orders you hold) with feedId ${feedId}.`,
      PROBLEM_CODES.feedReset,
    ).with({ feedId, newestSeq: await source.newestSeq() });
  }
  const seqs = await source.page(key, after, limit);
  if (!seqs.length && after > source.knownHigh()) {
    const newest = await source.newestSeq();
    if (after > newest)
      throw new BadRequestError(
        `The cursor after=${after} is past the newest event (seq ${newest}): no event will ever come after it. Resume from the last seq you processed (at most ${newest}).`,
        [{ path: 'after', message: `At most ${newest}` }],
        PROBLEM_CODES.cursorAhead,
      ).with({ newestSeq: newest, feedId });
  }
  // The texts in page order (cached, or read below), each as a list element after another (`,{…}`); an event
  // not found (deleted) stays undefined and is left out.
  const texts: (Buffer | undefined)[] = seqs.map((seq) => eventTexts.get(seq));
  const missing = seqs.filter((_seq, i) => !texts[i]);
  if (missing.length) {
    const read = new Map<number, Buffer>();
    for (const [seq, item] of await readEventTexts(db, missing, ORDER_EVENT_ITEM_JSON)) {
      const text = Buffer.from(item, 'utf8');
      read.set(seq, text);
      eventTexts.set(seq, text);
    }
    seqs.forEach((seq, i) => (texts[i] ??= read.get(seq)));
  }
  // `{"items":[`, the first event without its comma, one part per further event, the close.
  const parts: Buffer[] = [];
  let length = 0;
  for (const text of texts) {
    if (!text) continue;
    if (length) parts.push(text);
    else parts.push(OPEN, text.subarray(1));
    length += length ? text.length : OPEN.length + text.length - 1;
  }
  const nextAfter = seqs.length ? seqs[seqs.length - 1] : after;
  const tail = `"nextAfter":${nextAfter},"feedId":"${feedId}"}`;
  const close = Buffer.from(length ? `],${tail}` : `{"items":[],${tail}`);
  parts.push(close);
  return { parts, length: length + close.length, nextAfter, feedId };
}
const OPEN = Buffer.from('{"items":[');

/** POST /integrations/orders/{orderNumber}/status: ready / completed / cancelled like the Store Orders buttons (404 outside the key's stores). */
export async function setOrderStatus(
  deps: SettleDeps,
  key: ApiKeyPrincipal,
  orderNumber: string,
  status: 'ready' | 'completed' | 'cancelled',
  reason: string | undefined,
  ip: string | null,
): Promise<OrderDetail> {
  const row = await repo.findOrderPlace(deps.db, orderNumber);
  if (!row || !keyReaches(key, { id: row.store_id, boardId: row.board_id })) throw new NotFoundError('Order not found');
  if (status === 'cancelled' && !reason) throw new BadRequestError('Enter a reason', [{ path: 'reason', message: 'Enter a reason' }]);
  return transition(deps, row.id, status, { actor: { apiKeyId: key.apiKeyId }, ip, via: 'api_key' }, reason ?? null);
}
