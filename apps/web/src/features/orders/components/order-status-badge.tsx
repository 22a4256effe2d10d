import { Badge } from '@/components/ui/feedback';

type Variant = 'default' | 'success' | 'warning' | 'destructive' | 'outline';
const STATUS: Record<string, { label: string; variant: Variant }> = {
  reserved: { label: 'New', variant: 'warning' },
  ready: { label: 'Ready', variant: 'success' },
  completed: { label: 'Completed', variant: 'outline' },
  cancelled: { label: 'Cancelled', variant: 'destructive' },
  cancel_pending: { label: 'Refund pending', variant: 'warning' },
  delivered: { label: 'Delivered', variant: 'success' },
  pending: { label: 'Pending', variant: 'warning' },
  processing: { label: 'Processing', variant: 'default' },
  shipped: { label: 'Shipped', variant: 'default' },
};

/** What a buyer sees for a card order whose gateway outcome is not known yet (issue 8 §1). */
export const PAYMENT_BEING_CONFIRMED = 'Payment being confirmed';

/**
 * Order status badge (spec 001 §4): reserved shows as 'New' (warning), ready success, completed outline;
 * a card order whose payment is still pending shows 'Payment being confirmed' whatever its status, and one
 * whose refund is on its way 'Refund pending'.
 */
export function OrderStatusBadge({ status, paymentStatus }: { status: string; paymentStatus?: string }) {
  if (paymentStatus === 'pending') return <Badge variant="warning">{PAYMENT_BEING_CONFIRMED}</Badge>;
  if (paymentStatus === 'refund_pending') return <Badge variant="warning">{STATUS.cancel_pending.label}</Badge>;
  const s = STATUS[status] ?? { label: status.charAt(0).toUpperCase() + status.slice(1), variant: 'default' as const };
  return <Badge variant={s.variant}>{s.label}</Badge>;
}
