import { z } from 'zod';

/**
 * Every stable problem `code` the API answers (RFC 9457 problem+json, ARCHITECTURE §5): the one list the
 * server's typed errors take and the web switches on. A key is its code in camelCase. `title` and
 * `detail` are for people; clients never switch on them. New codes are added here, in their area.
 */
export const PROBLEM_CODES = {
  // Generic
  validationFailed: 'validation_failed',
  malformedJson: 'malformed_json',
  /** An unreadable request: bad percent-encoding, a body that is not the encoding it claims (400). */
  malformedRequest: 'malformed_request',
  /** A body type the route does not take (415). */
  unsupportedMediaType: 'unsupported_media_type',
  payloadTooLarge: 'payload_too_large',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  rateLimited: 'rate_limited',
  internalError: 'internal_error',
  /** The database (or another dependency) is unreachable right now: 503 with Retry-After. */
  serviceUnavailable: 'service_unavailable',
  // Identity (spec 000): sign-in, sessions, passwords
  invalidCredentials: 'invalid_credentials',
  accountDeactivated: 'account_deactivated',
  resetTokenInvalid: 'reset_token_invalid',
  currentPasswordIncorrect: 'current_password_incorrect',
  commonPassword: 'common_password',
  sessionInvalid: 'session_invalid',
  // Carts (spec 001 §4)
  cartQuantityLimit: 'cart_quantity_limit',
  deliveryUnavailable: 'delivery_unavailable',
  // Checkout, payment and orders (spec 001 §4, §9; spec 002). Status: cart_empty 400;
  // checkout_session_not_found and checkout_session_user_mismatch 404 (another person's session answers 404
  // like any row that is not yours, with the spec's text); checkout_session_expired 410; checkout_session_used,
  // checkout_cart_changed, checkout_items_unavailable, payment_in_progress, payment_being_confirmed,
  // idempotency_in_progress, order_not_reserved, order_awaiting_payment 409; in_store_not_for_delivery,
  // idempotency_key_reused, nothing_to_reorder 422; payment_declined 402; payment_error 502; payment_unconfirmed 500.
  checkoutSessionInvalid: 'checkout_session_invalid',
  cartEmpty: 'cart_empty',
  checkoutSessionNotFound: 'checkout_session_not_found',
  checkoutSessionUserMismatch: 'checkout_session_user_mismatch',
  checkoutSessionExpired: 'checkout_session_expired',
  checkoutSessionUsed: 'checkout_session_used',
  checkoutCartChanged: 'checkout_cart_changed',
  checkoutItemsUnavailable: 'checkout_items_unavailable',
  paymentInProgress: 'payment_in_progress',
  inStoreNotForDelivery: 'in_store_not_for_delivery',
  paymentDeclined: 'payment_declined',
  paymentError: 'payment_error',
  paymentUnconfirmed: 'payment_unconfirmed',
  idempotencyInProgress: 'idempotency_in_progress',
  /** The former name of idempotency_key_reused, no longer answered. */
  idempotencyMismatch: 'idempotency_mismatch',
  /** The same Idempotency-Key with a different body (Stripe's rule), 422. */
  idempotencyKeyReused: 'idempotency_key_reused',
  /** The cart has a card order awaiting its gateway outcome, 409. */
  paymentBeingConfirmed: 'payment_being_confirmed',
  orderNotReserved: 'order_not_reserved',
  orderAwaitingPayment: 'order_awaiting_payment',
  /** complete / cancel / status from a status that does not allow it, 409. */
  orderTransitionIllegal: 'order_transition_illegal',
  /** An API key without the scope a route needs, 403 (ARCHITECTURE §10). */
  apiKeyScopeMissing: 'api_key_scope_missing',
  /** The gateway refused the refund of a cancelled card order: the order is cancel_pending, 502. */
  refundFailed: 'refund_failed',
  /** The refund was sent but the gateway's answer was lost: the reconciler settles it by lookup (never sent again), 502. */
  refundUnconfirmed: 'refund_unconfirmed',
  /** A refund of this order is on its way to the gateway: another cancel waits for its outcome, 409. */
  refundInProgress: 'refund_in_progress',
  nothingToReorder: 'nothing_to_reorder',
  /** Card payment refused up front: the store's payment setup (gateway, credentials) is missing, 422 (spec 002 §8 SETUP). */
  paymentSetup: 'payment_setup',
  // Invitations and outlet requests (spec 000 §3, §5)
  invitationNotFound: 'invitation_not_found',
  invitationExpired: 'invitation_expired',
  invitationUsed: 'invitation_used',
  invitationRevoked: 'invitation_revoked',
  invitationNotPending: 'invitation_not_pending',
  roleNotGrantable: 'role_not_grantable',
  outletNotGrantable: 'outlet_not_grantable',
  /** A grant to oneself, directly or through an invitation to one's own address (ARCHITECTURE §11 rule 3), 403. */
  selfGrantForbidden: 'self_grant_forbidden',
  /** A grant at a place the caller does not reach (ARCHITECTURE §11 rule 1), 403. */
  scopeNotGrantable: 'scope_not_grantable',
  passwordRequired: 'password_required',
  outletRequestDecided: 'outlet_request_decided',
  // Administration I: users and roles
  selfEditForbidden: 'self_edit_forbidden',
  userNotEditable: 'user_not_editable',
  outletNotManageable: 'outlet_not_manageable',
  roleNotAssignable: 'role_not_assignable',
  invalidRoleSelection: 'invalid_role_selection',
  roleImmutable: 'role_immutable',
  lastSuperAdmin: 'last_super_admin',
  selfDelete: 'self_delete',
  selfDeactivate: 'self_deactivate',
  // Administration II: items, outlets, stores, boards, credentials, imports
  outletCodeTaken: 'outlet_code_taken',
  storeExists: 'store_exists',
  warehouseCodeTaken: 'warehouse_code_taken',
  boardNumberTaken: 'board_number_taken',
  credentialExists: 'credential_exists',
  invalidPassword: 'invalid_password',
  decryptionFailed: 'decryption_failed',
  monetraOnly: 'monetra_only',
  importsUnavailable: 'imports_unavailable',
  /** Accepting an invitation whose email belongs to a deactivated account, 409. */
  inviteeDeactivated: 'invitee_deactivated',
  // Warehouse integrations (ARCHITECTURE §10)
  /** A bulk upsert with refused rows: every row's { row, field, message } in `errors`, nothing written, 422. */
  rowsInvalid: 'rows_invalid',
  /** POST /integrations/test-events outside test and development by a key without the sandbox flag, 403. */
  testEventsUnavailable: 'test_events_unavailable',
  // Data in (issue 23): bulk bodies the portal cannot read are refused, never read as "no rows"
  /** A bulk body that parses to zero rows, 400. */
  bulkBodyEmpty: 'bulk_body_empty',
  /** A CSV whose header lacks the columns the route needs (named in the detail), 400. */
  csvHeaderUnknown: 'csv_header_unknown',
  /** A body whose Content-Encoding (gzip, br, deflate) cannot be decoded, 400. */
  bodyUndecodable: 'body_undecodable',
  /** A text body (CSV, JSON) holding NUL bytes or bytes that are not UTF-8: binary, 400. */
  bodyBinary: 'body_binary',
  /** mode=replace would remove more than half of what a store carries (or a board sells) without allowMassRemoval=true, 422. */
  massRemovalRefused: 'mass_removal_refused',
  /** A feed cursor (`after`) past the newest event; the answer names `newestSeq`, 400. */
  cursorAhead: 'cursor_ahead',
  /** A feed cursor of another feed (the database was recreated or restored); the answer names the current `feedId`, 409. */
  feedReset: 'feed_reset',
  // The licensee's ordering week (issue 27)
  /** A quantity off the item's quantity rule (min, max, increment, full cases); names `rule`, `nearestValid`, `itemCode`, 422. */
  quantityRule: 'quantity_rule',
  /** An outlet's second order guide with the same name, 409. */
  guideNameTaken: 'guide_name_taken',
  // The licensee's ordering week II (issue 28)
  /** A Delivery checkout or order below the store's minimum; the answer names `shortfallMl` and `shortfallAmount`, 409. */
  belowDeliveryMinimum: 'below_delivery_minimum',
  /** An emergency order with none of the outlet's yearly allowance left, 409. */
  emergencyAllowanceUsed: 'emergency_allowance_used',
  /** A claim on an order that is not completed, 409. */
  claimOrderNotCompleted: 'claim_order_not_completed',
  /** A claim opened more than 48 hours after completion, 409. */
  claimWindowClosed: 'claim_window_closed',
  /** A claim line for more bottles than were ordered (less those already claimed), or a code not on the order, 422. */
  claimQuantityExceeded: 'claim_quantity_exceeded',
  /** Resolving a claim that is resolved already, 409. */
  claimResolved: 'claim_resolved',
  /** A profile phone another active account already signs in with (issue 26 §7), 409. */
  phoneTaken: 'phone_taken',
} as const;
export type ProblemCode = (typeof PROBLEM_CODES)[keyof typeof PROBLEM_CODES];
/** Every problem code, for schemas and tests. */
export const PROBLEM_CODE_VALUES = Object.values(PROBLEM_CODES) as [ProblemCode, ...ProblemCode[]];

/**
 * The one HTTP status of each problem code, on every endpoint (ARCHITECTURE §5): input that fails its
 * schema or a field rule is 400 `validation_failed` (with field `errors`); 422 is kept for well-formed
 * requests a business rule refuses, each under a code of its own (`rows_invalid` for bulk upserts,
 * `idempotency_key_reused`…). The server's typed errors take only codes of their own status, so a code
 * cannot answer with two statuses; a client may switch on `code` alone.
 */
export const PROBLEM_STATUS = {
  validation_failed: 400,
  malformed_json: 400,
  malformed_request: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  invalid_credentials: 401,
  account_deactivated: 401,
  reset_token_invalid: 400,
  current_password_incorrect: 400,
  common_password: 400,
  session_invalid: 401,
  cart_quantity_limit: 400,
  delivery_unavailable: 422,
  checkout_session_invalid: 400,
  cart_empty: 400,
  checkout_session_not_found: 404,
  checkout_session_user_mismatch: 404,
  checkout_session_expired: 410,
  checkout_session_used: 409,
  checkout_cart_changed: 409,
  checkout_items_unavailable: 409,
  payment_in_progress: 409,
  in_store_not_for_delivery: 422,
  payment_declined: 402,
  payment_error: 502,
  payment_unconfirmed: 500,
  idempotency_in_progress: 409,
  idempotency_mismatch: 422,
  idempotency_key_reused: 422,
  payment_being_confirmed: 409,
  order_not_reserved: 409,
  order_awaiting_payment: 409,
  order_transition_illegal: 409,
  api_key_scope_missing: 403,
  refund_failed: 502,
  nothing_to_reorder: 422,
  payment_setup: 422,
  invitation_not_found: 404,
  invitation_expired: 410,
  invitation_used: 409,
  invitation_revoked: 409,
  invitation_not_pending: 409,
  role_not_grantable: 403,
  outlet_not_grantable: 403,
  self_grant_forbidden: 403,
  scope_not_grantable: 403,
  password_required: 401,
  outlet_request_decided: 409,
  self_edit_forbidden: 403,
  user_not_editable: 403,
  outlet_not_manageable: 403,
  role_not_assignable: 403,
  invalid_role_selection: 422,
  role_immutable: 409,
  last_super_admin: 409,
  self_delete: 409,
  self_deactivate: 409,
  outlet_code_taken: 409,
  store_exists: 409,
  warehouse_code_taken: 409,
  board_number_taken: 409,
  credential_exists: 409,
  invalid_password: 403,
  decryption_failed: 422,
  monetra_only: 422,
  imports_unavailable: 503,
  invitee_deactivated: 409,
  rows_invalid: 422,
  test_events_unavailable: 403,
  refund_unconfirmed: 502,
  refund_in_progress: 409,
  bulk_body_empty: 400,
  csv_header_unknown: 400,
  body_undecodable: 400,
  body_binary: 400,
  mass_removal_refused: 422,
  cursor_ahead: 400,
  feed_reset: 409,
  quantity_rule: 422,
  guide_name_taken: 409,
  below_delivery_minimum: 409,
  emergency_allowance_used: 409,
  claim_order_not_completed: 409,
  claim_window_closed: 409,
  claim_quantity_exceeded: 422,
  claim_resolved: 409,
  phone_taken: 409,
} as const satisfies Record<ProblemCode, number>;
/** The codes whose status is `S` (what each typed error of that status may carry). */
export type ProblemCodeOf<S extends number> = { [C in ProblemCode]: (typeof PROBLEM_STATUS)[C] extends S ? C : never }[ProblemCode];

export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  /** A PROBLEM_CODES value; a string here so a client older than the server still reads a new code. */
  code: z.string(),
  requestId: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type Problem = z.infer<typeof problemSchema>;
export type FieldError = z.infer<typeof fieldErrorSchema>;
