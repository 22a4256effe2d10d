import type { Product } from '@portal/contracts';
import { Dialog } from '../../../components/ui/dialog';
import { Button } from '../../../components/ui/button';
import { PricingAnalysis } from './pricing-analysis';

/** The Pricing Analysis dialog of a product (spec 001 §2); `product` null keeps it closed. */
export function PricingDialog({ product, onClose }: { product: Product | null; onClose: () => void }) {
  return (
    <Dialog
      open={product !== null}
      onOpenChange={(open) => { if (!open) onClose(); }}
      title="Pricing Analysis"
      description={product ? `${product.name} · #${product.code}` : undefined}
      footer={<Button variant="outline" onClick={onClose}>Close</Button>}
    >
      {product && <PricingAnalysis key={product.code} product={product} />}
    </Dialog>
  );
}
