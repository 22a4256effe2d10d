import { Siren } from 'lucide-react';
import { formatMoney } from '@/lib/format';

/** "Emergency order" on an order's details (issue 28 §1): delivered outside the calendar, with its fee. */
export function EmergencyNote({ fee }: { fee?: string | null }) {
  return (
    <p className="flex items-center gap-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
      <Siren className="h-4 w-4 shrink-0" aria-hidden />
      Emergency order{fee && Number(fee) > 0 ? ` · fee ${formatMoney(fee)} included in the total` : ''}
    </p>
  );
}
