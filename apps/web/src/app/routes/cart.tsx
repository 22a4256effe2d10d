import { CartPage } from '@/features/cart/components/cart-page';

/** /cart: My Cart (spec 001 §2). */
export function CartRoute() {
  return <CartPage />;
}
