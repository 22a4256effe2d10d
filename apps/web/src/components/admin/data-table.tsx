import { useMemo, useState, type HTMLAttributes, type Key, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown, type LucideIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Pagination } from '@/components/ui/pagination';
import { Table, Td, Th } from '@/components/ui/table';
import { DESKTOP_QUERY, useMediaQuery } from '@/lib/use-media-query';
import { DataCards, RowCheckbox } from './data-cards';
import type { Column, RowSelection, SortState } from './data-table-types';

export type { Column, RowSelection, SortState } from './data-table-types';

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

/** Did the click or key come from a control inside the row (a link, a button, a checkbox), not the row itself? */
const fromControl = (e: MouseEvent | KeyboardEvent) =>
  e.target instanceof Element &&
  e.target !== e.currentTarget &&
  Boolean(e.target.closest('a,button,input,select,textarea,[role="checkbox"]'));

/** Props making a row (or card) open `onOpen` on click anywhere and on Enter when focused (spec 002 §2: "selecting one goes to…"). */
export function openableProps(onOpen: () => void, label: string) {
  return {
    tabIndex: 0,
    'aria-label': label,
    className: 'cursor-pointer hover:bg-stone-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600',
    onClick: (e: MouseEvent) => {
      if (!fromControl(e)) onOpen();
    },
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' && !fromControl(e)) {
        e.preventDefault();
        onOpen();
      }
    },
  };
}

function compare(a: string | number | null | undefined, b: string | number | null | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'en-US', { numeric: true });
}

/** The page's select-all checkbox: checked, indeterminate or not, by how many of the page's rows are selected. */
function PageCheckbox<Row>({ rows, rowKey, selection }: { rows: readonly Row[]; rowKey: (r: Row) => Key; selection: RowSelection<Row> }) {
  const keys = rows.map(rowKey);
  const n = keys.filter((k) => selection.selected.has(k)).length;
  return (
    <Checkbox
      aria-label="Select all rows on this page"
      checked={n === 0 ? false : n === keys.length ? true : 'indeterminate'}
      onCheckedChange={(c) => selection.onChange(keys, c === true)}
      onClick={(e) => e.stopPropagation()}
    />
  );
}

/**
 * A typed admin table on the shared Table look: `columns` over `rows` keyed by `rowKey`. Sorting: with
 * `onSortChange` the server sorts (`sort` is its state); without it, the rows are sorted here. With
 * `pagination` the "x–y of n" footer (components/ui/pagination; with `onPageSize` also rows per page and a
 * page jump) follows the table. `selection` adds checkboxes for bulk actions; `onRowOpen` makes the whole row
 * open (click or Enter, named `rowOpenLabel(row)`). Below 768 px (DESKTOP_QUERY) the rows are cards (DataCards):
 * no sideways scrolling at 390 px.
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
  selection,
  onRowOpen,
  rowOpenLabel,
}: {
  label: string;
  rows: readonly Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => Key;
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement>;
  sort?: SortState | null;
  onSortChange?: (sort: SortState) => void;
  /** A server page (`{ page, pageSize, total }`, e.g. the answer itself) with `onPage` and the rows' `label`. */
  pagination?: {
    page: number;
    pageSize: number;
    total: number;
    onPage: (page: number) => void;
    label: string;
    onPageSize?: (n: number) => void;
    pageSizes?: readonly number[];
  };
  selection?: RowSelection<Row>;
  onRowOpen?: (row: Row) => void;
  rowOpenLabel?: (row: Row) => string;
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
  const open = (row: Row) => (onRowOpen ? openableProps(() => onRowOpen(row), rowOpenLabel?.(row) ?? 'Open') : {});
  const desktop = useMediaQuery(DESKTOP_QUERY);
  return (
    <>
      {desktop ? (
        <Table aria-label={label}>
          <thead>
            <tr>
              {selection && (
                <Th className="w-10">
                  <PageCheckbox rows={shown} rowKey={rowKey} selection={selection} />
                </Th>
              )}
              {columns.map((c, i) => (
                <Th key={i} className={c.headerClassName} aria-sort={c.sortKey ? ariaSort(sort, c.sortKey) : undefined}>
                  {c.sortKey ? <SortButton label={c.header} sort={sort} sortKey={c.sortKey} onSort={onSort} /> : c.header}
                </Th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={rowKey(row)} {...open(row)} {...rowProps?.(row)}>
                {selection && (
                  <Td className="w-10">
                    <RowCheckbox row={row} rowKey={rowKey} selection={selection} />
                  </Td>
                )}
                {columns.map((c, i) => (
                  <Td key={i} className={c.className}>
                    {c.cell ? c.cell(row) : c.field ? (row[c.field] as ReactNode) : null}
                  </Td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      ) : (
        <DataCards
          label={label}
          rows={shown}
          columns={columns}
          rowKey={rowKey}
          sort={sort}
          onSort={onSort}
          selection={selection}
          open={onRowOpen ? open : undefined}
        />
      )}
      {pagination && (
        <Pagination
          page={pagination.page}
          pageSize={pagination.pageSize}
          total={pagination.total}
          onPage={pagination.onPage}
          label={pagination.label}
          onPageSize={pagination.onPageSize}
          pageSizes={pagination.pageSizes}
        />
      )}
    </>
  );
}
