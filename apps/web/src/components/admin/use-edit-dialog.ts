import { useState } from 'react';

/**
 * The open/closed state of an admin create/edit dialog: `open()` for a new row, `open(row)` to edit one;
 * `close()` on Cancel; `saved()` closes and calls `onSaved` (usually the list's SWR mutate, to refetch).
 */
export function useEditDialog<T>(onSaved: () => unknown) {
  const [state, setState] = useState<{ target?: T } | null>(null);
  return {
    isOpen: state !== null,
    target: state?.target,
    open: (target?: T) => setState({ target }),
    close: () => setState(null),
    saved: () => {
      setState(null);
      void onSaved();
    },
  };
}
