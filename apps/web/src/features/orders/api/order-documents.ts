import { downloadFile } from '@/lib/download';

/** GET /orders/{id}/invoice.pdf (issue 28 §3), saved as invoice-<order number>.pdf. Throws ApiError. */
export function downloadInvoice(order: { id: number; orderNumber: string }): Promise<void> {
  return downloadFile(`/orders/${order.id}/invoice.pdf`, `invoice-${order.orderNumber}.pdf`);
}

/** GET /outlets/{id}/statements/{yyyy-mm}.pdf (issue 28 §3), saved as statement-<outlet>-<yyyy-mm>.pdf. Throws ApiError. */
export function downloadStatement(outletId: number, month: string): Promise<void> {
  return downloadFile(`/outlets/${outletId}/statements/${month}.pdf`, `statement-${outletId}-${month}.pdf`);
}
