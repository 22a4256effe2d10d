import { render, screen } from '@testing-library/react';
import type { Cart } from '@portal/contracts';
import { SplitCaseFeeRow } from './split-case-fee-row';

const cart = (fee: string | undefined, perBottle?: string) =>
  ({
    splitCaseFee: fee,
    store: {
      name: 'Central City Liquor',
      city: null,
      state: null,
      deliveryEnabled: false,
      deliveryCharge: '0.00',
      splitCasePolicy: 'split_fee',
      splitCaseFee: perBottle,
    },
  }) as unknown as Cart;

describe('split-case fee in the cart totals (issue 27 §3)', () => {
  it('when the store charges a fee for incomplete cases, then the fee and the rate per bottle show', () => {
    render(
      <dl>
        <SplitCaseFeeRow cart={cart('2.50', '0.50')} />
      </dl>,
    );
    expect(screen.getByText('Split-case fee')).toBeInTheDocument();
    expect(screen.getByText('$2.50')).toBeInTheDocument();
    expect(screen.getByText('$0.50 per bottle of an incomplete case')).toBeInTheDocument();
  });
  it('when there is no fee (other policies, or full cases), then nothing shows', () => {
    const { container } = render(
      <dl>
        <SplitCaseFeeRow cart={cart('0.00', '0.50')} />
        <SplitCaseFeeRow cart={cart(undefined)} />
      </dl>,
    );
    expect(container.querySelector('dl')).toBeEmptyDOMElement();
  });
});
