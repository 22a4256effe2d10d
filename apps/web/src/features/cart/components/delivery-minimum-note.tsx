import { Scale, Siren } from 'lucide-react';
import { litresText, shortfallText, type Shortfall } from '@/lib/delivery-schedule';
import { formatMoney } from '@/lib/format';

/**
 * The delivery minimum before checkout (issue 28 §2): "Add 2.3 L more for delivery" when the cart's volume or
 * subtotal is below the store's minimum, with the minimum itself and the reminder that pickup has none. Nothing
 * when the cart meets it (or is for pickup: the caller passes no shortfall then).
 */
export function DeliveryMinimumNote({
  shortfall,
  minimumMl,
  minimumAmount,
}: {
  shortfall: Shortfall | null;
  minimumMl?: number | null;
  minimumAmount?: string | null;
}) {
  const text = shortfall ? shortfallText(shortfall) : null;
  if (!text) return null;
  const minimum = [minimumMl ? litresText(minimumMl) : null, minimumAmount && Number(minimumAmount) > 0 ? formatMoney(minimumAmount) : null]
    .filter(Boolean)
    .join(' and ');
  return (
    <div
      role="status"
      data-testid="delivery-minimum"
      className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <Scale className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <div>
        <p className="font-semibold">{text}</p>
        <p>{minimum ? `This store delivers orders from ${minimum}. ` : ''}Pickup has no minimum.</p>
      </div>
    </div>
  );
}

/** In the cart's summary when Emergency order is chosen: its fee is added at checkout (issue 28 §1). */
export function EmergencyFeeNote({ fee }: { fee?: string | null }) {
  return (
    <p className="flex gap-2 rounded-md bg-red-50 p-3 text-sm text-red-900" data-testid="emergency-fee">
      <Siren className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      {fee && Number(fee) > 0
        ? `Emergency order: the ${formatMoney(fee)} fee is added at checkout.`
        : 'Emergency order: delivered outside the order calendar.'}
    </p>
  );
}
