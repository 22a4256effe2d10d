import { createClaimBodySchema, outletScheduleOverrideBodySchema, storeOrderingPatchSchema } from './ordering-schedule';
import { statementMonthSchema } from './orders';
import { PROBLEM_STATUS } from './problem';
import { ORDER_EVENT_TYPES } from './integrations';

/** The ordering week II contract (issue 28): store settings, overrides, claims, statement months, codes. */
describe('ordering schedule contract', () => {
  it('when store settings are patched, then days, times, zones and amounts are checked and amounts normalised', () => {
    expect(storeOrderingPatchSchema.parse({ deliveryMinimumAmount: '12.5', emergencyFee: 3, timeZone: 'America/Chicago' })).toEqual({
      deliveryMinimumAmount: '12.50',
      emergencyFee: '3.00',
      timeZone: 'America/Chicago',
    });
    expect(storeOrderingPatchSchema.parse({ deliveryMinimumAmount: null, deliveryMinimumMl: null })).toEqual({
      deliveryMinimumAmount: null,
      deliveryMinimumMl: null,
    });
    for (const bad of [
      { orderDays: [] },
      { orderDays: [1, 1] },
      { orderDays: [7] },
      { cutoffLocalTime: '2pm' },
      { timeZone: 'Nowhere/Else' },
      { deliveryMinimumMl: -1 },
      { deliveryMinimumAmount: '-1' },
      { deliveryLeadDays: 15 },
    ]) {
      expect([bad, storeOrderingPatchSchema.safeParse(bad).success]).toEqual([bad, false]);
    }
  });

  it('when an outlet override is sent, then null clears a field and unknown fields are refused', () => {
    expect(outletScheduleOverrideBodySchema.parse({ orderDays: null, cutoffLocalTime: '09:30' })).toEqual({
      orderDays: null,
      cutoffLocalTime: '09:30',
    });
    expect(outletScheduleOverrideBodySchema.safeParse({ timeZone: 'UTC' }).success).toBe(false);
  });

  it('when a claim is sent, then each line needs a code, a positive quantity and a known reason', () => {
    expect(createClaimBodySchema.safeParse({ lines: [{ itemCode: 'A1', quantity: 1, reason: 'leaking' }] }).success).toBe(true);
    expect(createClaimBodySchema.safeParse({ lines: [{ itemCode: 'A1', quantity: 0, reason: 'leaking' }] }).success).toBe(false);
    expect(createClaimBodySchema.safeParse({ lines: [{ itemCode: 'A1', quantity: 1, reason: 'lost' }] }).success).toBe(false);
    expect(createClaimBodySchema.safeParse({ lines: [] }).success).toBe(false);
  });

  it('when a statement month is read, then it is YYYY-MM with a real month', () => {
    expect(statementMonthSchema.safeParse('2026-12').success).toBe(true);
    expect(statementMonthSchema.safeParse('2026-13').success).toBe(false);
    expect(statementMonthSchema.safeParse('2026-1').success).toBe(false);
  });

  it('when the codes and event types are listed, then the new ones have their one status and the feed names the claim events', () => {
    expect(PROBLEM_STATUS).toMatchObject({
      below_delivery_minimum: 409,
      emergency_allowance_used: 409,
      claim_order_not_completed: 409,
      claim_window_closed: 409,
      claim_quantity_exceeded: 422,
      claim_resolved: 409,
    });
    expect(ORDER_EVENT_TYPES).toEqual(expect.arrayContaining(['order.claim_opened', 'order.claim_resolved']));
  });
});
