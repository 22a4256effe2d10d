import type { Knex } from 'knex';

/**
 * Row types of the integration tables (API keys, webhooks, the order feed, Idempotency-Keys), declared to
 * knex so `db('api_keys')` is typed (issue 25 §1). Column types follow the migrations; as read by `pg`
 * (db/knex.ts): timestamptz → Date, bigint → number (INT8 parser), jsonb → parsed JSON, text[] → string[].
 * Each table is `CompositeTableType<row, insert, update>`: inserts leave out what has a default.
 */

/** api_keys (migrations 20261121000500, 2026113000040003). */
export interface ApiKeyRow {
  id: string;
  name: string;
  key_prefix: string;
  /** SHA-256 of the whole key (hex); the key itself is never stored. */
  key_hash: string;
  board_id: number | null;
  store_id: number | null;
  scopes: string[];
  sandbox: boolean;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** webhook_endpoints (migration 2026112700070001). */
export interface WebhookEndpointRow {
  id: string;
  url: string;
  /** The signing secret (`whsec_…`): shown once, never logged. */
  secret: string;
  board_id: number | null;
  store_id: number | null;
  events: string[];
  active: boolean;
  created_by: string | null;
  created_at: Date;
}

/** webhook_deliveries (migrations 2026112700070001, 2026113000040001). */
export interface WebhookDeliveryRow {
  id: string;
  endpoint_id: string;
  event_seq: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** webhook_attempts (migrations 2026112700070001, 2026113000040001). */
export interface WebhookAttemptRow {
  id: number;
  delivery_id: string;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/** order_events (migrations 2026112700070001, 2026112800010001, 2026113000040003): the append-only feed. */
export interface OrderEventRow {
  seq: number;
  /** Null only for a synthetic test event (`test`). */
  order_id: number | null;
  store_id: number;
  type:
    | 'order.created'
    | 'order.ready'
    | 'order.completed'
    | 'order.cancelled'
    | 'order.cancel_pending'
    | 'order.claim_opened'
    | 'order.claim_resolved';
  occurred_at: Date;
  /** The order snapshot (contracts OrderDetail). */
  payload: unknown;
  /** The event as the feed sends it (ASCII JSON); null on rows older than its migration. */
  item_json: string | null;
  test: boolean;
}

/** idempotency_keys (migrations 20261125000100, 20261127000100): Idempotency-Keys of users' writes. */
export interface IdempotencyKeyRow {
  user_id: string;
  key: string;
  scope: string;
  request_hash: string;
  status_code: number | null;
  response_body: unknown;
  order_id: number | null;
  created_at: Date;
  completed_at: Date | null;
  lease_expires_at: Date;
}

/** integration_requests (migrations 2026112700070001, 2026113000050001): Idempotency-Keys of API-key writes. */
export interface IntegrationRequestRow {
  api_key_id: string;
  key: string;
  request_hash: string;
  /** Null while the request runs (then `completed_at` is null too). */
  status_code: number | null;
  response_body: unknown;
  created_at: Date;
  completed_at: Date | null;
  lease_expires_at: Date;
}

/** The nullable columns of `R` (an insert may leave them out: null). */
type NullableKeys<R> = { [K in keyof R]: null extends R[K] ? K : never }[keyof R];

/**
 * A table whose insert may leave out the columns in `D` (they have defaults) and the nullable ones, and
 * whose update is partial; any value may be a knex Raw (`now()`, `attempts + 1`).
 */
type Table<R, D extends keyof R> = Knex.CompositeTableType<
  R,
  { [K in Exclude<keyof R, D | NullableKeys<R>>]: R[K] | Knex.Raw } & { [K in D | NullableKeys<R>]?: R[K] | Knex.Raw },
  { [K in keyof R]?: R[K] | Knex.Raw }
>;

declare module 'knex/types/tables' {
  interface Tables {
    api_keys: Table<ApiKeyRow, 'id' | 'scopes' | 'sandbox' | 'created_at'>;
    webhook_endpoints: Table<WebhookEndpointRow, 'id' | 'active' | 'created_at'>;
    webhook_deliveries: Table<WebhookDeliveryRow, 'id' | 'status' | 'attempts' | 'created_at'>;
    webhook_attempts: Table<WebhookAttemptRow, 'id' | 'attempted_at'>;
    order_events: Table<OrderEventRow, 'seq' | 'occurred_at' | 'test'>;
    idempotency_keys: Table<IdempotencyKeyRow, 'response_body' | 'created_at' | 'lease_expires_at'>;
    integration_requests: Table<IntegrationRequestRow, 'response_body' | 'created_at' | 'lease_expires_at'>;
  }
}
