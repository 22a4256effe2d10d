import { useState } from 'react';
import type { Cart } from '@portal/contracts';
import { cartShortfall, useDeliverySchedule, type Shortfall } from '@/lib/delivery-schedule';

/** The store's delivery minimums as the cart knows them (the cart's store, else the schedule answer). */
function minimumsOf(cart: Cart | null, schedule: { deliveryMinimumMl?: number | null; deliveryMinimumAmount?: string | null } | undefined) {
  const store = (cart?.store ?? {}) as { deliveryMinimumMl?: number | null; deliveryMinimumAmount?: string | null };
  return {
    ml: store.deliveryMinimumMl ?? schedule?.deliveryMinimumMl ?? null,
    amount: store.deliveryMinimumAmount ?? schedule?.deliveryMinimumAmount ?? null,
  };
}

/**
 * The cart's delivery plan (issue 28 §1–2): the outlet × store schedule, the Emergency order choice (sent with
 * checkout) and the shortfall against the store's delivery minimum (null for Pickup, which has none).
 */
export function useDeliveryPlan(cart: Cart | null) {
  const schedule = useDeliverySchedule(cart?.outletId, cart?.storeId);
  const [emergency, setEmergency] = useState(false);
  const minimum = minimumsOf(cart, schedule.data);
  const delivery = cart?.fulfillment.type === 'Delivery';
  const shortfall: Shortfall | null = cart && delivery ? cartShortfall(cart.items, cart.subtotal, minimum) : null;
  return {
    schedule: schedule.data,
    scheduleLoading: schedule.isLoading,
    scheduleFailed: Boolean(schedule.error),
    emergency: delivery && emergency,
    setEmergency,
    shortfall,
    minimum,
  };
}
