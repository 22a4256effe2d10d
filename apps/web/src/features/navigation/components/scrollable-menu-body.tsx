import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ChevronDown, ChevronUp } from 'lucide-react';

/** Spec 000 §9: the menu's scroll buttons move by 70 % of the visible height. */
export const MENU_SCROLL_STEP = 0.7;

/**
 * The scrolling part of the profile menu with scroll-up and scroll-down buttons (spec 000 §2). The
 * buttons lie over the list's edges (nothing jumps under the pointer) and show only when there is more
 * to see in their direction; keyboard users move with the arrow
 * keys, which scroll the focused item into view, so the buttons stay out of the tab order.
 */
export function ScrollableMenuBody({ children }: { children: ReactNode }) {
  const viewport = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ up: false, down: false });

  const measure = useCallback(() => {
    const el = viewport.current;
    if (!el) return;
    const up = el.scrollTop > 1;
    const down = el.scrollTop + el.clientHeight < el.scrollHeight - 1;
    setEdges((e) => (e.up === up && e.down === down ? e : { up, down }));
  }, []);

  useLayoutEffect(measure, [measure]);
  useEffect(() => {
    window.addEventListener('resize', measure);
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (ro && inner.current) ro.observe(inner.current);
    if (ro && viewport.current) ro.observe(viewport.current);
    return () => {
      window.removeEventListener('resize', measure);
      ro?.disconnect();
    };
  }, [measure]);

  const scroll = (dir: 1 | -1) => {
    const el = viewport.current;
    if (!el) return;
    el.scrollTop = el.scrollTop + dir * el.clientHeight * MENU_SCROLL_STEP;
    measure();
  };

  const btn =
    'absolute inset-x-0 z-10 flex h-7 items-center justify-center bg-white text-stone-500 hover:bg-stone-100 hover:text-stone-900 cursor-pointer';
  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      {edges.up && (
        <button
          type="button"
          tabIndex={-1}
          aria-label="Scroll up"
          className={`${btn} top-0 rounded-t-lg border-b border-stone-100`}
          onClick={() => scroll(-1)}
        >
          <ChevronUp className="h-4 w-4" aria-hidden />
        </button>
      )}
      <div
        ref={viewport}
        data-testid="menu-viewport"
        onScroll={measure}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain scroll-smooth p-1"
      >
        <div ref={inner}>{children}</div>
      </div>
      {edges.down && (
        <button
          type="button"
          tabIndex={-1}
          aria-label="Scroll down"
          className={`${btn} bottom-0 rounded-b-lg border-t border-stone-100`}
          onClick={() => scroll(1)}
        >
          <ChevronDown className="h-4 w-4" aria-hidden />
        </button>
      )}
    </div>
  );
}
