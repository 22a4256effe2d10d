import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { notify } from '@/components/ui/toaster';

/** Texts of Clear cart (issue 9 §8). */
export const CLEAR_CART_TEXTS = {
  button: 'Clear cart',
  title: 'Clear your cart?',
  cleared: 'Cart cleared',
} as const;

/**
 * 'Clear cart' (issue 9 §8, spec 001 §4 clearing): empties the cart in one step, after a confirmation
 * naming what goes (DELETE /carts/{id} through `onClear`, which shows the spec's failure toasts itself).
 * The dialog stays open while the request runs; success closes it with a 'Cart cleared' toast.
 */
export function ClearCartButton({
  productCount,
  cartLabel,
  onClear,
}: {
  productCount: number;
  cartLabel: string;
  onClear: () => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    const ok = await onClear();
    setBusy(false);
    if (ok) {
      setOpen(false);
      notify({
        title: CLEAR_CART_TEXTS.cleared,
        description: `Removed ${productCount} ${productCount === 1 ? 'product' : 'products'} from your cart.`,
        variant: 'success',
      });
    }
  };
  return (
    <>
      <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50 hover:text-red-800" onClick={() => setOpen(true)}>
        <Trash2 className="h-4 w-4" aria-hidden />
        {CLEAR_CART_TEXTS.button}
      </Button>
      <AlertDialog
        open={open}
        onOpenChange={(o) => {
          if (!busy) setOpen(o);
        }}
        title={CLEAR_CART_TEXTS.title}
        description={
          <>
            This removes all {productCount} {productCount === 1 ? 'product' : 'products'} from your cart for{' '}
            <span className="font-medium text-stone-900">{cartLabel}</span>. This cannot be undone.
          </>
        }
        action={
          <Button variant="destructive" onClick={() => void confirm()} loading={busy}>
            {CLEAR_CART_TEXTS.button}
          </Button>
        }
      />
    </>
  );
}
