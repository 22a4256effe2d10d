import type { Table } from './commerce';

/**
 * Row types of the ordering-week tables (issue 27; migration 2026120100040001_ordering_week), merged into
 * knex's `Tables` beside commerce.ts (interface merging).
 */

/** `order_guides`: a named list of par levels of an outlet at one store; the name is unique per outlet. */
export interface OrderGuideRecord {
  id: number;
  outlet_id: number;
  store_id: number;
  name: string;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** `order_guide_lines`: an item code with its par (bottles, 1–999) at a position (0-based) of a guide. */
export interface OrderGuideLineRecord {
  id: number;
  guide_id: number;
  item_code: string;
  par_quantity: number;
  position: number;
}

/** `store_item_history`: a store's real average weekly bottles of an item in `year` (seeds, store_items_2022.csv). */
export interface StoreItemHistoryRecord {
  store_id: number;
  item_code: string;
  weekly_bottles: string;
  order_lines: number;
  year: number;
}

declare module 'knex/types/tables' {
  interface Tables {
    order_guides: Table<OrderGuideRecord>;
    order_guide_lines: Table<OrderGuideLineRecord>;
    store_item_history: Table<StoreItemHistoryRecord, 'weekly_bottles'>;
  }
}
