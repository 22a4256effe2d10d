import { useMemo, useState, type HTMLAttributes, type Key, type ReactNode } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown, type LucideIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { Table, Td, Th } from '@/components/ui/table';

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
}

/** The actions column's header: announced as "Actions", not shown. */
export const actionsHeader = <span className="sr-only">Actions</span>;

/** A row's action button (ghost, small): icon and text, named for the row by `label` (e.g. "Edit Harbor Tavern"). */
export function RowAction({
  icon: Icon,
  text,
  label,
  onClick,
  loading,
}: {
  icon: LucideIcon;
  text?: string;
  label: string;
  onClick: () => void;
  loading?: boolean;
}) {
  return (
    <Button variant="ghost" size="sm" onClick={onClick} aria-label={label} loading={loading}>
      <Icon className="h-4 w-4" aria-hidden />
      {text}
    </Button>
  );
}

const ariaSort = (sort: SortState | null, key: string) => (sort?.key === key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none');

function SortButton({
  label,
  sort,
  sortKey,
  onSort,
}: {
  label: ReactNode;
  sort: SortState | null;
  sortKey: string;
  onSort: (s: SortState) => void;
}) {
  const active = sort?.key === sortKey;
  const Icon = active ? (sort.dir === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <button
      type="button"
      className="inline-flex cursor-pointer items-center gap-1 rounded uppercase tracking-wide hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600"
      onClick={() => onSort({ key: sortKey, dir: active && sort.dir === 'asc' ? 'desc' : 'asc' })}
    >
      {label}
      <Icon className={active ? 'h-3.5 w-3.5' : 'h-3.5 w-3.5 text-stone-400'} aria-hidden />
    </button>
  );
}

function compare(a: string | number | null | undefined, b: string | number | null | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'en-US', { numeric: true });
}

/**
 * A typed admin table on the shared Table look: `columns` over `rows` keyed by `rowKey`. Sorting: with
 * `onSortChange` the server sorts (`sort` is its state); without it, the rows are sorted here. With
 * `pagination` the "x–y of n" footer (components/ui/pagination) follows the table.
 */
export function DataTable<Row>({
  label,
  rows,
  columns,
  rowKey,
  rowProps,
  sort: serverSort,
  onSortChange,
  pagination,
}: {
  label: string;
  rows: readonly Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => Key;
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement>;
  sort?: SortState | null;
  onSortChange?: (sort: SortState) => void;
  /** A server page (`{ page, pageSize, total }`, e.g. the answer itself) with `onPage` and the rows' `label`. */
  pagination?: { page: number; pageSize: number; total: number; onPage: (page: number) => void; label: string };
}) {
  const [localSort, setLocalSort] = useState<SortState | null>(null);
  const sort = onSortChange ? (serverSort ?? null) : localSort;
  const onSort = onSortChange ?? setLocalSort;
  const shown = useMemo(() => {
    const col = !onSortChange && localSort ? columns.find((c) => c.sortKey === localSort.key) : undefined;
    if (!col || !localSort) return rows;
    const value = col.sortValue ?? ((r: Row) => (col.field ? (r[col.field] as string | number | null) : null));
    const sign = localSort.dir === 'asc' ? 1 : -1;
    return [...rows].sort((a, b) => sign * compare(value(a), value(b)));
  }, [rows, columns, localSort, onSortChange]);
  return (
    <>
      <Table aria-label={label}>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <Th key={i} className={c.headerClassName} aria-sort={c.sortKey ? ariaSort(sort, c.sortKey) : undefined}>
                {c.sortKey ? <SortButton label={c.header} sort={sort} sortKey={c.sortKey} onSort={onSort} /> : c.header}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((c, i) => (
                <Td key={i} className={c.className}>
                  {c.cell ? c.cell(row) : c.field ? (row[c.field] as ReactNode) : null}
                </Td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
      {pagination && (
        <Pagination
          page={pagination.page}
          pageSize={pagination.pageSize}
          total={pagination.total}
          onPage={pagination.onPage}
          label={pagination.label}
        />
      )}
    </>
  );
}
