import { useState } from 'react';
import { DndContext, KeyboardSensor, PointerSensor, closestCorners, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { cn } from '@/lib/cn';
import type { GuideDraft } from '../hooks/use-guide-draft';
import { GuideLineRow } from './guide-line-row';

/**
 * The guide's lines as a table, reordered by drag (pointer), by keyboard on the handle (Space, arrows, Space) or
 * with the move buttons; each move is announced. In fill mode each line has a shelf count box.
 */
export function GuideLinesTable({
  draft,
  fill,
  onHand,
  setOnHand,
}: {
  draft: GuideDraft;
  fill: boolean;
  onHand: Record<string, string>;
  setOnHand: (key: string, text: string) => void;
}) {
  const [said, setSaid] = useState('');
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const { lines } = draft;
  const nameAt = (i: number) => lines[i]?.name ?? `#${lines[i]?.itemCode}`;

  const move = (from: number, to: number) => {
    if (to < 0 || to >= lines.length) return;
    draft.move(from, to);
    setSaid(`${nameAt(from)} moved to position ${to + 1} of ${lines.length}.`);
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = lines.findIndex((l) => l.key === active.id);
    const to = lines.findIndex((l) => l.key === over.id);
    if (from >= 0 && to >= 0) move(from, to);
  };

  return (
    <div className="relative overflow-x-auto">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCorners}
        onDragEnd={onDragEnd}
        accessibility={{
          screenReaderInstructions: {
            draggable: 'To move a line, press Space, then the arrow keys, then Space to drop it. Escape cancels.',
          },
        }}
      >
        <table className={cn('w-full text-left', fill ? 'min-w-[34rem]' : 'min-w-[20rem]')}>
          <caption className="sr-only">Guide lines in order</caption>
          <thead>
            <tr className="border-b border-stone-200 text-xs font-semibold uppercase tracking-wide text-stone-500">
              <th scope="col" className="w-10 py-2 pl-2">
                <span className="sr-only">Drag</span>
              </th>
              <th scope="col" className="px-2 py-2">
                Item
              </th>
              <th scope="col" className="w-24 px-2 py-2">
                Par
              </th>
              {fill && (
                <>
                  <th scope="col" className="w-24 px-2 py-2">
                    On shelf
                  </th>
                  <th scope="col" className="w-20 px-2 py-2 text-right">
                    Order
                  </th>
                </>
              )}
              <th scope="col" className="w-28 py-2 pr-2 text-right">
                <span className="sr-only">Move or remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            <SortableContext items={lines.map((l) => l.key)} strategy={verticalListSortingStrategy}>
              {lines.map((l, i) => (
                <GuideLineRow
                  key={l.key}
                  line={l}
                  index={i}
                  count={lines.length}
                  fill={fill}
                  onHand={onHand[l.key] ?? ''}
                  onOnHand={setOnHand}
                  onPar={draft.setPar}
                  onMove={move}
                  onRemove={draft.remove}
                />
              ))}
            </SortableContext>
          </tbody>
        </table>
      </DndContext>
      <p role="status" aria-live="polite" className="sr-only">
        {said}
      </p>
    </div>
  );
}
