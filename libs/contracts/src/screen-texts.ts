/**
 * Screen texts of issue 26 §5 in the specs' words: Edit User for a missing or malformed id (spec 002 §2), and a
 * signed-in person without bcc.carts.checkout opening the checkout (spec 002 §6 Messages).
 */
export const SCREEN_TEXTS = {
  userNotFound: 'User not found',
  userNotFoundHint: 'The link may be mistyped, or the user was deleted.',
  checkoutDenied: "You don't have permission to access the checkout",
} as const;
