import type { ApiError } from '@/lib/api-error';
import { nearestValidOf } from '@/lib/quantity-rule';
import { notify } from '@/components/ui/toaster';

/**
 * A case-rule refusal (422 naming the nearest valid quantity, issue 27 §3): toasts the server's message with a
 * "Use N" action that sets the nearest valid quantity. Answers false (nothing shown) for any other error.
 */
export function toastCaseRule(error: ApiError | undefined, takeQuantity: (quantity: number) => void): boolean {
  if (!error || error.status !== 422) return false;
  const nearest = nearestValidOf(error);
  if (nearest === null) return false;
  notify({
    title: 'Quantity not allowed',
    description: error.problem.detail ?? `This item is sold in set quantities. The nearest valid quantity is ${nearest}.`,
    variant: 'destructive',
    action: nearest > 0 ? { label: `Use ${nearest}`, onClick: () => takeQuantity(nearest) } : undefined,
  });
  return true;
}
