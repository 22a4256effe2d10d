import { Undo2 } from 'lucide-react';
import type { Order } from '@portal/contracts';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/cn';

/** "Refunded $25.01" for an order whose card payment was refunded (issue 23 §1); null otherwise. */
export function refundText(order: Pick<Order, 'refundedAmount'>): string | null {
  return order.refundedAmount ? `Refunded ${formatMoney(order.refundedAmount)}` : null;
}

/** The refund of a cancelled card order, under its total on My Orders and Store Orders; nothing when not refunded. */
export function RefundNote({ order, className }: { order: Pick<Order, 'refundedAmount'>; className?: string }) {
  const text = refundText(order);
  if (!text) return null;
  return (
    <span className={cn('inline-flex items-center gap-1 text-sm font-medium text-emerald-700', className)}>
      <Undo2 className="h-3.5 w-3.5 shrink-0" aria-hidden />
      {text}
    </span>
  );
}
