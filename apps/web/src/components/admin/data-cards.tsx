import { useId, type HTMLAttributes, type Key, type ReactNode } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import type { Column, RowSelection, SortState } from './data-table-types';

/** A row's selection checkbox, named for the row. */
export function RowCheckbox<Row>({ row, rowKey, selection }: { row: Row; rowKey: (r: Row) => Key; selection: RowSelection<Row> }) {
  const key = rowKey(row);
  return (
    <Checkbox
      aria-label={`Select ${selection.rowLabel(row)}`}
      checked={selection.selected.has(key)}
      onCheckedChange={(c) => selection.onChange([key], c === true)}
      onClick={(e) => e.stopPropagation()}
    />
  );
}

/** The sort of the cards (no column headers to click on a narrow screen): one select of "column, direction". */
function CardSort<Row>({ columns, sort, onSort }: { columns: Column<Row>[]; sort: SortState | null; onSort: (s: SortState) => void }) {
  const id = useId();
  const sortable = columns.filter((c) => c.sortKey && (c.cardLabel || typeof c.header === 'string'));
  if (!sortable.length) return null;
  const value = sort ? `${sort.key}:${sort.dir}` : '';
  return (
    <div className="flex items-center gap-2 text-sm text-stone-600">
      <label htmlFor={id}>Sort by</label>
      <select
        id={id}
        value={value}
        onChange={(e) => {
          const [key, dir] = e.target.value.split(':');
          if (key) onSort({ key, dir: dir === 'desc' ? 'desc' : 'asc' });
        }}
        className="h-9 min-w-0 flex-1 cursor-pointer rounded-md border border-stone-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {!sort && <option value="">Default order</option>}
        {sortable.flatMap((c) => {
          const name = c.cardLabel ?? String(c.header);
          return [
            <option key={`${c.sortKey}:asc`} value={`${c.sortKey}:asc`}>
              {name} (ascending)
            </option>,
            <option key={`${c.sortKey}:desc`} value={`${c.sortKey}:desc`}>
              {name} (descending)
            </option>,
          ];
        })}
      </select>
    </div>
  );
}

/**
 * The rows of a DataTable as cards on narrow screens (below 768 px) (ARCHITECTURE §5: at 390 px admin tables turn
 * into cards, no sideways scrolling): each column's label and value, the selection checkbox, the whole card
 * opening the row when `open` is given, and a sort select in place of the headers.
 */
export function DataCards<Row>({
  label,
  rows,
  columns,
  rowKey,
  sort,
  onSort,
  selection,
  open,
}: {
  label: string;
  rows: readonly Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => Key;
  sort: SortState | null;
  onSort: (s: SortState) => void;
  selection?: RowSelection<Row>;
  open?: (row: Row) => HTMLAttributes<HTMLElement>;
}) {
  const value = (c: Column<Row>, row: Row): ReactNode => (c.cell ? c.cell(row) : c.field ? (row[c.field] as ReactNode) : null);
  const labelOf = (c: Column<Row>) => c.cardLabel ?? (typeof c.header === 'string' ? c.header : null);
  return (
    <div className="space-y-2">
      <CardSort columns={columns} sort={sort} onSort={onSort} />
      <ul className="space-y-2" aria-label={label}>
        {rows.map((row) => (
          <li
            key={rowKey(row)}
            {...open?.(row)}
            className={`min-w-0 rounded-lg border border-stone-200 bg-white p-3 shadow-sm ${open ? 'cursor-pointer hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-600' : ''}`}
          >
            <div className="flex items-start gap-3">
              {selection && (
                <div className="pt-1">
                  <RowCheckbox row={row} rowKey={rowKey} selection={selection} />
                </div>
              )}
              <dl className="grid min-w-0 flex-1 grid-cols-[minmax(5rem,auto)_1fr] gap-x-3 gap-y-1 text-sm">
                {columns.map((c, i) => {
                  const l = labelOf(c);
                  return l ? (
                    <div key={i} className="contents">
                      <dt className="text-xs font-medium uppercase tracking-wide text-stone-500">{l}</dt>
                      <dd className="min-w-0 break-words text-stone-800">{value(c, row)}</dd>
                    </div>
                  ) : (
                    <dd key={i} className="col-span-2 flex flex-wrap justify-end gap-1">
                      {value(c, row)}
                    </dd>
                  );
                })}
              </dl>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
