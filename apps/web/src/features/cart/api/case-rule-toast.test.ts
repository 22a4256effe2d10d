import { ApiError } from '@/lib/api-error';
import { notify } from '@/components/ui/toaster';
import { toastCaseRule } from './case-rule-toast';

jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const refusal = (body: object, status = 422) =>
  new ApiError(
    status,
    {
      type: 'about:blank',
      title: 'Quantity rule',
      status,
      code: 'quantity_rule',
      detail: 'Sold in steps of 6: the nearest valid quantity is 12.',
    },
    body,
  );

describe('case-rule refusal in the cart (issue 27 §3)', () => {
  afterEach(() => (notify as jest.Mock).mockClear());

  it('when the API refuses a quantity with nearestValid, then the message shows with "Use 12" that sets it', () => {
    const use = jest.fn();
    expect(toastCaseRule(refusal({ nearestValid: 12 }), use)).toBe(true);
    const shown = (notify as jest.Mock).mock.calls[0][0];
    expect(shown).toMatchObject({
      title: 'Quantity not allowed',
      description: 'Sold in steps of 6: the nearest valid quantity is 12.',
      variant: 'destructive',
    });
    expect(shown.action.label).toBe('Use 12');
    shown.action.onClick();
    expect(use).toHaveBeenCalledWith(12);
  });

  it('when the error is not a case-rule refusal, then nothing is shown and the caller keeps its own message', () => {
    expect(toastCaseRule(refusal({}, 500), jest.fn())).toBe(false);
    expect(toastCaseRule(new ApiError(422, { type: 'x', title: 'Bad', status: 422, code: 'validation_failed' }, {}), jest.fn())).toBe(
      false,
    );
    expect(toastCaseRule(undefined, jest.fn())).toBe(false);
    expect(notify).not.toHaveBeenCalled();
  });
});
