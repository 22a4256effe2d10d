import { PaymentPage } from '@/features/payment/components/payment-page';

/** /payment (permission bcc.carts.checkout): the checkout's payment page. */
export function PaymentRoute() {
  return <PaymentPage />;
}
