import { useCallback, useMemo, useRef, useState } from 'react';
import type { BulkResult } from '../api/schemas';
import type { ParsedLine } from '../lib/parse-order-list';

/** One line of the quick order grid. `key` is stable for React; the row number shown is its index + 1. */
export interface QuickLine {
  key: number;
  itemCode: string;
  /** The quantity box's text ('' = not entered). */
  quantity: string;
  /** Product name once known (picked from the autocomplete or answered by the server). */
  name: string | null;
  status: 'draft' | 'added' | 'refused';
  /** Why the line was refused or cannot be sent (the server's message, or the paste's problem). */
  message: string | null;
  /** The server's nearest valid quantity for a case-rule refusal. */
  nearestValid: number | null;
}

/** Lines that can be sent: a code and a whole quantity 1–999, not yet added. */
export function sendable(l: QuickLine): boolean {
  const q = Number(l.quantity);
  return l.status !== 'added' && l.itemCode.trim() !== '' && Number.isInteger(q) && q >= 1 && q <= 999;
}

/** The text of a refusal: the server's message, else one made from its code. */
function refusalText(r: BulkResult): string {
  if (r.message) return r.message;
  if (r.code === 'unknown_code') return 'Unknown item code';
  if (r.code === 'not_carried') return 'Not carried at this store';
  if (r.code === 'inactive') return 'No longer sold online';
  if (r.nearestValid != null) return `Quantity not allowed by the case rule — nearest valid is ${r.nearestValid}`;
  return 'Could not be added';
}

/**
 * The quick order grid's state (issue 27 §2): lines with stable keys, always one blank line at the end,
 * paste/CSV appends, per-line server results. Updates touch one line at a time so 200 memoised rows stay fast.
 */
export function useQuickOrder() {
  const next = useRef(1);
  const blank = useCallback(
    (): QuickLine => ({ key: next.current++, itemCode: '', quantity: '', name: null, status: 'draft', message: null, nearestValid: null }),
    [],
  );
  const [lines, setLines] = useState<QuickLine[]>(() => [blank()]);

  /** Keeps exactly one blank line at the end. */
  const withBlank = useCallback(
    (ls: QuickLine[]) => {
      const trimmed = [...ls];
      while (trimmed.length > 1 && trimmed.at(-1)!.itemCode === '' && trimmed.at(-2)!.itemCode === '' && trimmed.at(-2)!.quantity === '')
        trimmed.pop();
      const last = trimmed.at(-1);
      return last && last.itemCode === '' && last.quantity === '' ? trimmed : [...trimmed, blank()];
    },
    [blank],
  );

  const update = useCallback(
    (key: number, patch: Partial<QuickLine>) =>
      setLines((ls) =>
        withBlank(ls.map((l) => (l.key === key ? { ...l, status: 'draft', message: null, nearestValid: null, ...patch } : l))),
      ),
    [withBlank],
  );

  const remove = useCallback((key: number) => setLines((ls) => withBlank(ls.filter((l) => l.key !== key))), [withBlank]);

  /** Appends pasted or uploaded lines (before the blank one), their problems shown at once. */
  const append = useCallback(
    (parsed: ParsedLine[]) =>
      setLines((ls) =>
        withBlank([
          ...ls.filter((l) => l.itemCode !== '' || l.quantity !== ''),
          ...parsed.map((p) => ({
            ...blank(),
            itemCode: p.itemCode,
            quantity: p.quantity == null ? '' : String(p.quantity),
            status: p.problem ? ('refused' as const) : ('draft' as const),
            message: p.problem,
          })),
        ]),
      ),
    [withBlank, blank],
  );

  /** Applies the server's results to the lines that were sent (results[i].row = i + 1 of `sent`). */
  const applyResults = useCallback((sent: QuickLine[], results: BulkResult[]) => {
    const byKey = new Map<number, BulkResult>();
    results.forEach((r) => {
      const line = sent[r.row - 1];
      if (line) byKey.set(line.key, r);
    });
    setLines((ls) =>
      ls.map((l) => {
        const r = byKey.get(l.key);
        if (!r) return l;
        const name = r.name ?? l.name;
        if (r.ok) return { ...l, name, status: 'added', message: null, nearestValid: null, quantity: String(r.quantity ?? l.quantity) };
        return { ...l, name, status: 'refused', message: refusalText(r), nearestValid: r.nearestValid ?? null };
      }),
    );
  }, []);

  const clearAdded = useCallback(() => setLines((ls) => withBlank(ls.filter((l) => l.status !== 'added'))), [withBlank]);
  const clearAll = useCallback(() => setLines([blank()]), [blank]);

  const counts = useMemo(
    () => ({
      sendable: lines.filter(sendable).length,
      added: lines.filter((l) => l.status === 'added').length,
      refused: lines.filter((l) => l.status === 'refused').length,
      filled: lines.filter((l) => l.itemCode !== '').length,
    }),
    [lines],
  );
  return { lines, update, remove, append, applyResults, clearAdded, clearAll, counts };
}
