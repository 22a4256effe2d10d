import type { Knex } from 'knex';
import type { FulfillmentType, OrderStatus, PaymentMethod, PaymentStatus } from '@portal/contracts';

/**
 * Row types of the commerce and catalog tables (ARCHITECTURE §3), as the pg driver returns them
 * (db/knex.ts): numeric → string (money stays exact), bigint → number, date → 'YYYY-MM-DD' string,
 * timestamptz → Date, jsonb → the parsed value. Columns from the migrations (migrations/); a column
 * name not listed here fails the typecheck of `db('table')` queries. Inserts and updates take any subset
 * of the columns (`Writes`), each also taking a `knex.raw` / `fn.now()` or a subquery, a timestamp an ISO
 * string, and money (`M`) a number.
 * Identity and admin tables: db/tables/admin.ts; integrations and webhooks: db/tables/integrations.ts.
 */

/** Money as the driver returns it ('12.50'); a write may pass a number (see `Writes`). */
type Money = string;

/**
 * What an insert or update of a `T` row may set: any subset; money columns `M` also take a number,
 * jsonb columns `J` their JSON text, timestamps an ISO string.
 */
export type Writes<T, M extends keyof T = never, J extends keyof T = never> = {
  [K in keyof T]?:
    | T[K]
    | (K extends M ? number : never)
    | (K extends J ? string : never)
    | (Date extends T[K] ? string : never)
    | Knex.Raw
    | Knex.QueryBuilder;
};

/** A table's knex type: reads as `T`, writes as `Writes<T, M, J>`. */
export type Table<T, M extends keyof T = never, J extends keyof T = never> = Knex.CompositeTableType<T, Writes<T, M, J>>;

export interface CartRecord {
  id: number;
  user_id: string;
  outlet_id: number;
  store_id: number;
  status: 'active' | 'checked_out' | 'abandoned';
  fulfillment_flag: FulfillmentType;
  delivery_charge: Money;
  delivery_date: string | null;
  created_by_flag: string;
  created_at: Date;
  updated_at: Date;
}

export interface CartItemRecord {
  id: number;
  cart_id: number;
  item_id: number;
  item_code: string;
  quantity: number;
  unit_price: Money;
  created_at: Date;
  updated_at: Date;
}

export interface CheckoutSessionRecord {
  id: string;
  token_hash: string;
  user_id: string;
  cart_id: number;
  total: Money;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Date;
  /** An emergency order's session (migration 2026120100060001): its total carries the store's emergency fee. */
  emergency: boolean;
}

export interface OrderRecord {
  id: number;
  order_number: string;
  user_id: string | null;
  store_id: number;
  outlet_id: number;
  checkout_session_id: string | null;
  status: OrderStatus;
  payment_method: PaymentMethod;
  payment_status: PaymentStatus;
  fulfillment_flag: FulfillmentType;
  delivery_date: string | null;
  delivery_charge: Money;
  subtotal: Money;
  total_amount: Money;
  /** Split-case fees charged (issue 27), part of total_amount. */
  split_case_fee: Money;
  customer_name: string;
  customer_email: string;
  customer_phone: string | null;
  notes: string | null;
  idempotency_key: string | null;
  order_date: Date;
  ready_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  payment_checked_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Migration 2026120100060001: an emergency order (skips the calendar) and its fee (in total_amount). */
  emergency: boolean;
  emergency_fee: Money;
}

export interface OrderItemRecord {
  id: number;
  order_id: number;
  item_code: string;
  item_name: string;
  bottle_size_id: number | null;
  bottlesize_text: string | null;
  quantity: number;
  unit_price: Money;
  total_price: Money;
}

export interface PaymentRecord {
  id: number;
  order_id: number;
  kind: 'charge' | 'refund';
  gateway: string;
  amount: Money;
  currency: string;
  status: 'pending' | 'approved' | 'declined' | 'error';
  result_code: string | null;
  verbiage: string | null;
  gateway_reference: string | null;
  merchant_reference: string | null;
  card_brand: string | null;
  card_last4: string | null;
  attempted_at: Date;
  created_at: Date;
}

/** The test gateway's ledger (payments/test-gateway.ts): one charge per merchant reference. */
export interface TestGatewayChargeRecord {
  merchant_reference: string;
  amount: Money;
  status: 'approved' | 'declined' | 'error';
  result_code: string;
  verbiage: string;
  gateway_reference: string | null;
  card_last4: string | null;
  refund_reference: string | null;
  refunded_at: Date | null;
  created_at: Date;
}

export interface ItemRecord {
  id: number;
  board_id: number;
  code: string;
  name: string;
  category: string | null;
  retail: Money;
  bottles_per_case: number | null;
  bottle_size_id: number | null;
  active: boolean;
  /** The item's quantity rule (issue 27): bottles 1–999, max null = none. */
  min_order_quantity: number;
  max_order_quantity: number | null;
  order_increment: number;
  vendor_code: string | null;
  vendor_name: string | null;
  proof: number | null;
  age: number | null;
  upc: string | null;
  list_date: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface InventoryRecord {
  store_id: number;
  item_id: number;
  on_hand: number | null;
  updated_at: Date;
}

/** catalog_versions (migration 2026120100080002): per-store catalog counters, store_id 0 for items and sizes. */
export interface CatalogVersionRecord {
  store_id: number;
  version: string;
}

export interface BottleSizeRecord {
  id: number;
  name: string;
  volume_ml: number;
}

/** One file of an import run (import_runs.files): its name, kind (null when unrecognised), row counts and errors. */
export interface ImportFileRecord {
  name: string;
  kind: string | null;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: string[];
}

export interface ImportRunRecord {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  source: 'upload' | 'cli';
  created_by: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  heartbeat_at: Date | null;
  rows_read: number;
  rows_total: number;
  files: ImportFileRecord[];
  work_dir: string | null;
  error: string | null;
}

/** store_schedules (migration 2026120100060001): a store's own ordering settings (absent: the defaults). */
export interface StoreScheduleRecord {
  store_id: number;
  order_days: number[];
  /** 'HH:MM:SS' as the driver returns a time. */
  cutoff_local_time: string;
  time_zone: string;
  delivery_lead_days: number;
  delivery_minimum_ml: number | null;
  delivery_minimum_amount: Money | null;
  emergency_allowance: number;
  emergency_fee: Money;
  updated_at: Date;
}

/** outlet_store_schedules (migration 2026120100060001): an outlet's overrides at one store (null: the store's). */
export interface OutletStoreScheduleRecord {
  outlet_id: number;
  store_id: number;
  order_days: number[] | null;
  cutoff_local_time: string | null;
  delivery_lead_days: number | null;
  emergency_allowance: number | null;
}

/** order_claims (migration 2026120100060001): a claim after delivery and its resolution. */
export interface OrderClaimRecord {
  id: number;
  order_id: number;
  opened_by: string | null;
  note: string | null;
  status: 'open' | 'resolved';
  outcome: 'credit' | 'replace' | 'rejected' | null;
  resolution_note: string | null;
  resolved_by: string | null;
  credit_amount: Money;
  created_at: Date;
  resolved_at: Date | null;
}

/** order_claim_lines (migration 2026120100060001): one claimed line. */
export interface OrderClaimLineRecord {
  id: number;
  claim_id: number;
  item_code: string;
  quantity: number;
  reason: 'damaged' | 'wrong_item' | 'short' | 'leaking';
  outcome: 'credit' | 'replace' | 'rejected' | null;
  credit_amount: Money | null;
}

declare module 'knex/types/tables' {
  interface Tables {
    carts: Table<CartRecord, 'delivery_charge'>;
    cart_items: Table<CartItemRecord, 'unit_price'>;
    checkout_sessions: Table<CheckoutSessionRecord, 'total'>;
    orders: Table<OrderRecord, 'delivery_charge' | 'subtotal' | 'total_amount' | 'split_case_fee' | 'emergency_fee'>;
    order_items: Table<OrderItemRecord, 'unit_price' | 'total_price'>;
    payments: Table<PaymentRecord, 'amount'>;
    test_gateway_charges: Table<TestGatewayChargeRecord, 'amount'>;
    items: Table<ItemRecord, 'retail'>;
    inventory: Table<InventoryRecord>;
    bottle_sizes: Table<BottleSizeRecord>;
    catalog_versions: Table<CatalogVersionRecord>;
    import_runs: Table<ImportRunRecord, never, 'files'>;
    store_schedules: Table<StoreScheduleRecord, 'delivery_minimum_amount' | 'emergency_fee'>;
    outlet_store_schedules: Table<OutletStoreScheduleRecord>;
    order_claims: Table<OrderClaimRecord, 'credit_amount'>;
    order_claim_lines: Table<OrderClaimLineRecord, 'credit_amount'>;
  }
}
