import type { LiveStatus } from '../api/live-orders';

/** The words and dot colour of each live status ('off' shows nothing). */
const LOOK: Record<Exclude<LiveStatus, 'off'>, { text: string; dot: string }> = {
  connecting: { text: 'Connecting…', dot: 'bg-stone-400' },
  live: { text: 'Live', dot: 'bg-emerald-500' },
  reconnecting: { text: 'Reconnecting…', dot: 'bg-amber-500' },
};

/** A small "Live" / "Reconnecting…" badge beside an order list's title (issue 26 §7); announced politely. */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  if (status === 'off') return null;
  const look = LOOK[status];
  return (
    <span
      role="status"
      aria-live="polite"
      className="inline-flex h-6 items-center gap-1.5 rounded-full border border-stone-200 bg-white px-2.5 text-xs font-medium text-stone-700"
      title={status === 'live' ? 'Updates arrive as they happen' : 'Live updates are paused; the list refreshes periodically'}
    >
      <span aria-hidden="true" className={`h-2 w-2 shrink-0 rounded-full ${look.dot}`} />
      {look.text}
    </span>
  );
}
