import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { QuantityInput, isAcceptedQuantityText, QUANTITY_COMMIT_MS } from './quantity-input';

function setup(quantity = 2) {
  const onCommit = jest.fn();
  function Harness() {
    const [q, setQ] = useState(quantity);
    return (
      <QuantityInput
        quantity={q}
        label="Quantity of Vodka"
        onCommit={(n) => {
          onCommit(n);
          setQ(n);
        }}
      />
    );
  }
  render(<Harness />);
  return { onCommit, input: screen.getByRole('textbox', { name: 'Quantity of Vodka' }) as HTMLInputElement };
}

describe('quantity input (spec 001 §4, §5)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it.each([
    ['', true],
    ['0', true],
    ['7', true],
    ['42', true],
    ['999', true],
    ['1000', false],
    ['abc', false],
    ['1.5', false],
    ['-1', false],
    [' 5', false],
  ])('when %j is typed, then accepted is %s', (text, ok) => {
    expect(isAcceptedQuantityText(text)).toBe(ok);
  });

  it('when a quantity is typed, then it is committed 800 ms after the last change, once', () => {
    const { onCommit, input } = setup(2);
    fireEvent.change(input, { target: { value: '1' } });
    act(() => {
      jest.advanceTimersByTime(500);
    });
    fireEvent.change(input, { target: { value: '12' } });
    act(() => {
      jest.advanceTimersByTime(QUANTITY_COMMIT_MS - 1);
    });
    expect(onCommit).not.toHaveBeenCalled();
    act(() => {
      jest.advanceTimersByTime(1);
    });
    expect(onCommit).toHaveBeenCalledTimes(1);
    expect(onCommit).toHaveBeenCalledWith(12);
  });

  it('when letters, a fourth digit or more than 999 are typed, then the text does not change', () => {
    const { input } = setup(5);
    fireEvent.change(input, { target: { value: '5a' } });
    expect(input.value).toBe('5');
    fireEvent.change(input, { target: { value: '999' } });
    fireEvent.change(input, { target: { value: '9999' } });
    expect(input.value).toBe('999');
  });

  it('when the box is left, then the typed value commits at once', () => {
    const { onCommit, input } = setup(2);
    fireEvent.change(input, { target: { value: '30' } });
    fireEvent.blur(input);
    expect(onCommit).toHaveBeenCalledWith(30);
    act(() => {
      jest.advanceTimersByTime(2000);
    });
    expect(onCommit).toHaveBeenCalledTimes(1);
  });

  it('when the box is emptied, then 0 is committed (the item is removed)', () => {
    const { onCommit, input } = setup(3);
    fireEvent.change(input, { target: { value: '' } });
    act(() => {
      jest.advanceTimersByTime(QUANTITY_COMMIT_MS);
    });
    expect(onCommit).toHaveBeenCalledWith(0);
  });

  it('when the same quantity is typed back, then nothing is committed', () => {
    const { onCommit, input } = setup(4);
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.change(input, { target: { value: '4' } });
    act(() => {
      jest.advanceTimersByTime(QUANTITY_COMMIT_MS);
    });
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('when minus is pressed at quantity 1, then 0 is committed (remove); plus adds one', () => {
    const { onCommit } = setup(1);
    fireEvent.click(screen.getByRole('button', { name: 'Increase quantity' }));
    expect(onCommit).toHaveBeenLastCalledWith(2);
    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity' }));
    expect(onCommit).toHaveBeenLastCalledWith(1);
    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity (removes the item)' }));
    expect(onCommit).toHaveBeenLastCalledWith(0);
  });

  it('when the quantity is 999, then plus is disabled', () => {
    setup(999);
    expect(screen.getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
  });

  it('when the quantity changes from outside, then the box shows it', () => {
    const onCommit = jest.fn();
    const { rerender } = render(<QuantityInput quantity={2} label="Q" onCommit={onCommit} />);
    rerender(<QuantityInput quantity={7} label="Q" onCommit={onCommit} />);
    expect(screen.getByRole('textbox', { name: 'Q' })).toHaveValue('7');
  });
});
