import { AlertTriangle } from 'lucide-react';
import { PAYMENT_ERROR_MESSAGES } from '@portal/contracts';
import { usePaymentReadiness } from '../api/get-payment-readiness';

/**
 * Store Orders (issue 16 §5): warns the store's manager when the store cannot take card payments (no
 * gateway, no or unreadable Monetra credentials), before a customer meets it at checkout. Renders nothing
 * while loading, when cards work, or when the check fails.
 */
export function StorePaymentWarning({ storeId }: { storeId: number | undefined }) {
  const { data } = usePaymentReadiness(storeId);
  if (!data || data.cardPaymentsAvailable) return null;
  return (
    <div
      role="status"
      data-testid="store-payment-warning"
      className="mb-5 flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0 text-amber-600" aria-hidden />
      <p>{PAYMENT_ERROR_MESSAGES.setupWarning}</p>
    </div>
  );
}
