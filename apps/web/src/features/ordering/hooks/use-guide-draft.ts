import { useCallback, useEffect, useRef, useState } from 'react';
import type { GuideLine, OrderGuide } from '../api/schemas';

/** A guide line being edited: a stable key for drag and drop, the par as the box's text. */
export interface DraftLine {
  key: string;
  itemCode: string;
  name: string | null;
  par: string;
  source: GuideLine | null;
}

/** Moves the element at `from` to `to` (a new array). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const copy = [...list];
  const [it] = copy.splice(from, 1);
  copy.splice(to, 0, it);
  return copy;
}

const toDraft = (l: GuideLine, i: number): DraftLine => ({
  key: `${l.itemCode}-${i}`,
  itemCode: l.itemCode,
  name: l.name ?? null,
  par: String(l.parQuantity),
  source: l,
});

/** A whole number 1–9999, or null. */
export function parOf(text: string): number | null {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= 9999 ? n : null;
}

/**
 * The editable copy of a guide (issue 27 §1): name and lines (add, remove, par, move), `dirty` until saved.
 * A newly loaded guide (another id or a server change while clean) replaces the draft.
 */
export function useGuideDraft(guide: OrderGuide | undefined) {
  const [name, setName] = useState(guide?.name ?? '');
  const [lines, setLines] = useState<DraftLine[]>(() => guide?.lines.map(toDraft) ?? []);
  const [dirty, setDirty] = useState(false);
  const loaded = useRef<OrderGuide | undefined>(undefined);

  useEffect(() => {
    if (!guide || guide === loaded.current) return;
    if (dirty && loaded.current?.id === guide.id) return;
    loaded.current = guide;
    setName(guide.name);
    setLines(guide.lines.map(toDraft));
    setDirty(false);
  }, [guide, dirty]);

  const change = useCallback((f: (ls: DraftLine[]) => DraftLine[]) => {
    setLines(f);
    setDirty(true);
  }, []);

  const move = useCallback((from: number, to: number) => change((ls) => moveItem(ls, from, to)), [change]);
  const setPar = useCallback((key: string, par: string) => change((ls) => ls.map((l) => (l.key === key ? { ...l, par } : l))), [change]);
  const remove = useCallback((key: string) => change((ls) => ls.filter((l) => l.key !== key)), [change]);
  /** Adds an item (or sets the par of the line that has it). Answers false when the code was already there. */
  const add = useCallback(
    (itemCode: string, itemName: string | null, par: number): boolean => {
      const fresh = !lines.some((l) => l.itemCode === itemCode);
      change((ls) =>
        ls.some((l) => l.itemCode === itemCode)
          ? ls.map((l) => (l.itemCode === itemCode ? { ...l, par: String(par) } : l))
          : [...ls, { key: `${itemCode}-${Date.now()}`, itemCode, name: itemName, par: String(par), source: null }],
      );
      return fresh;
    },
    [change, lines],
  );
  const rename = useCallback((n: string) => {
    setName(n);
    setDirty(true);
  }, []);

  const invalid = lines.some((l) => parOf(l.par) === null) || name.trim() === '';
  const body = () => ({ name: name.trim(), lines: lines.map((l) => ({ itemCode: l.itemCode, parQuantity: parOf(l.par) ?? 1 })) });
  return { name, rename, lines, move, setPar, remove, add, dirty, invalid, body, markSaved: () => setDirty(false) };
}
export type GuideDraft = ReturnType<typeof useGuideDraft>;
