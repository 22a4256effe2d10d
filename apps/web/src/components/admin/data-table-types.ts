import type { Key, ReactNode } from 'react';

/** Types of the admin DataTable scaffold (data-table.tsx, data-cards.tsx). */

/** A sort order: the column's `sortKey` and the direction. */
export interface SortState {
  key: string;
  dir: 'asc' | 'desc';
}

/**
 * One column of a DataTable (bulletproof-react's `{ title, field, Cell }`): a header, the cell as
 * `cell(row)` or the row's `field`; a column with `sortKey` gets a header button (aria-sort) and sorts
 * by `sortValue(row)` (default: the field) when the table sorts on the client.
 */
export interface Column<Row> {
  header: ReactNode;
  cell?: (row: Row) => ReactNode;
  field?: keyof Row;
  sortKey?: string;
  sortValue?: (row: Row) => string | number | null | undefined;
  className?: string;
  headerClassName?: string;
  /** The label of the value on a narrow screen's card (default: the header when it is text; none for actions). */
  cardLabel?: string;
}

/**
 * Row selection for bulk actions: a checkbox per row (named by `rowLabel`) and one for the page; `selected`
 * holds the selected rows' keys (`rowKey`), across pages.
 */
export interface RowSelection<Row> {
  selected: ReadonlySet<Key>;
  onChange: (keys: Key[], checked: boolean) => void;
  rowLabel: (row: Row) => string;
}
