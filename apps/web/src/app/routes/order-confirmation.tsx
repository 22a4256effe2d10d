import { useParams } from 'react-router-dom';
import { OrderConfirmation } from '@/features/orders/components/order-confirmation';
import { readLastOrderId } from '@/lib/checkout-storage';

/** /order-confirmation/{orderId}: the order just placed (falls back to the order the payment page remembered). */
export function OrderConfirmationRoute() {
  const { orderId } = useParams();
  return <OrderConfirmation orderIdParam={orderId} rememberedId={readLastOrderId()} />;
}
