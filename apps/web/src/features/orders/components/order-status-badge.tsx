import { Badge } from '../../../components/ui/feedback';

type Variant = 'default' | 'success' | 'warning' | 'destructive' | 'outline';
const STATUS: Record<string, { label: string; variant: Variant }> = {
  reserved: { label: 'New', variant: 'warning' },
  ready: { label: 'Ready', variant: 'success' },
  completed: { label: 'Completed', variant: 'outline' },
  cancelled: { label: 'Cancelled', variant: 'destructive' },
  delivered: { label: 'Delivered', variant: 'success' },
  pending: { label: 'Pending', variant: 'warning' },
  processing: { label: 'Processing', variant: 'default' },
  shipped: { label: 'Shipped', variant: 'default' },
};

/** Order status badge (spec 001 §4): reserved shows as 'New' (warning), ready success, completed outline. */
export function OrderStatusBadge({ status }: { status: string }) {
  const s = STATUS[status] ?? { label: status.charAt(0).toUpperCase() + status.slice(1), variant: 'default' as const };
  return <Badge variant={s.variant}>{s.label}</Badge>;
}
