import { useState } from 'react';

/**
 * True from the first render where `open` is true, and then for good: a dialog loaded at first use (React.lazy) is
 * mounted only once somebody opens it, so the page does no work for it while it loads (issue 26), and it stays
 * mounted afterwards for its closing animation.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
