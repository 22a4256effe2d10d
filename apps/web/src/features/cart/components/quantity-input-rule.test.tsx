import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { normaliseRule } from '@/lib/quantity-rule';
import { QuantityInput } from './quantity-input';

function setup(quantity: number, rule = normaliseRule({ min: 6, max: 18, increment: 6 })) {
  const onCommit = jest.fn();
  function Harness() {
    const [q, setQ] = useState(quantity);
    return (
      <QuantityInput
        quantity={q}
        rule={rule}
        label="Quantity of Vodka"
        onCommit={(n) => {
          onCommit(n);
          setQ(n);
        }}
      />
    );
  }
  render(<Harness />);
  return { onCommit, input: screen.getByRole('textbox', { name: 'Quantity of Vodka' }) };
}

describe('quantity input with a case rule (issue 27 §3)', () => {
  it('when the rule steps by 6 up to 18, then + goes 6 → 12 → 18 and stops, − goes back and removes below the minimum', () => {
    const { onCommit, input } = setup(6);
    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity by 6' }));
    expect(input).toHaveValue('12');
    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity by 6' }));
    expect(input).toHaveValue('18');
    expect(screen.getByRole('button', { name: 'Increase quantity by 6' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity by 6' }));
    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity by 6' }));
    expect(input).toHaveValue('6');
    expect(screen.getByRole('button', { name: 'Decrease quantity (removes the item)' })).toBeEnabled();
    expect(onCommit.mock.calls.map((c) => c[0])).toEqual([12, 18, 12, 6]);
  });

  it('when a quantity off the rule is in the box, then + and − snap to the neighbouring valid quantities', () => {
    const { onCommit } = setup(7);
    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity by 6' }));
    expect(onCommit).toHaveBeenLastCalledWith(12);
    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity by 6' }));
    expect(onCommit).toHaveBeenLastCalledWith(6);
  });
});
