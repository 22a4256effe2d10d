import { OrderGuidesPage, QuickOrderPage, SuggestedOrderPage } from '@/features/ordering';

/** /order-guides: the outlet's order guides for the current store (issue 27 §1). */
export function OrderGuidesRoute() {
  return <OrderGuidesPage />;
}
/** /quick-order: item codes, a pasted list or a CSV into the cart (issue 27 §2). */
export function QuickOrderRoute() {
  return <QuickOrderPage />;
}
/** /suggested-order: what this outlet usually orders at this store (issue 27 §5). */
export function SuggestedOrderRoute() {
  return <SuggestedOrderPage />;
}
