import { useState } from 'react';
import { FileDown } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { downloadInvoice } from '../api/order-documents';

/**
 * "Download invoice (PDF)" (issue 28 §3) on My Orders and Store Orders: fetches the invoice with the bearer and
 * saves it; a failure toasts the server's reason.
 */
export function InvoiceButton({
  order,
  size = 'md',
  variant = 'outline',
}: { order: { id: number; orderNumber: string } } & Pick<ButtonProps, 'size' | 'variant'>) {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      await downloadInvoice(order);
    } catch (e) {
      notify({
        title: 'Invoice not downloaded',
        description: e instanceof ApiError ? e.message : 'The invoice could not be downloaded. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button
      variant={variant}
      size={size}
      onClick={() => void download()}
      loading={busy}
      aria-label={`Download invoice (PDF) of order ${order.orderNumber}`}
    >
      {!busy && <FileDown className="h-4 w-4" aria-hidden />}
      Download invoice (PDF)
    </Button>
  );
}
