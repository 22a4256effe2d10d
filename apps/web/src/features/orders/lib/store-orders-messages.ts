/** Store Orders texts (spec 001 §2, §8; issue 14 §1), verbatim. */
export const STORE_ORDERS_MESSAGES = {
  searchPlaceholder: 'Search by order number, customer name, or email...',
  empty: 'No orders found.',
  noMatch: 'No orders match your search.',
  markedTitle: 'Order marked as ready',
  markedDescription: 'The order status has been updated to ready for pickup.',
  markFailed: 'Failed to mark order as ready. Please try again.',
  loadFailed: 'Failed to load orders. Please try again.',
  completedTitle: 'Order marked as completed',
  cancelledTitle: 'Order cancelled',
  actionFailed: 'The order could not be updated. Please try again.',
} as const;
