import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Product } from '@portal/contracts';
import { Dialog } from '@/components/ui/dialog';
import { Button } from '@/components/ui/button';
import { PricingAnalysis } from './pricing-analysis';

/**
 * The Pricing Analysis dialog of a product (spec 001 §2); `product` null keeps it closed. The dialog has
 * no Radix trigger, so it returns focus itself to the element that opened it (the card's Pricing button).
 */
export function PricingDialog({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const opener = useRef<HTMLElement | null>(null);
  const open = product !== null;
  // Layout effects run before the dialog's focus trap moves focus, so this still sees the opener.
  useLayoutEffect(() => {
    if (open && !opener.current && document.activeElement instanceof HTMLElement && document.activeElement !== document.body) {
      opener.current = document.activeElement;
    }
  }, [open]);
  useEffect(() => {
    if (open || !opener.current) return;
    const el = opener.current;
    opener.current = null;
    const t = setTimeout(() => {
      if (el.isConnected && !document.querySelector('[role="dialog"]')) el.focus();
    }, 0);
    return () => clearTimeout(t);
  }, [open]);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      title="Pricing Analysis"
      description={product ? `${product.name} · #${product.code}` : undefined}
      footer={
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      }
    >
      {product && <PricingAnalysis key={product.code} product={product} />}
    </Dialog>
  );
}
