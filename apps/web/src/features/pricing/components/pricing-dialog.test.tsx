import { useState } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { Product } from '@portal/contracts';
import { PricingDialog } from './pricing-dialog';

const vodka: Product = {
  code: '35918',
  name: 'TITOS HANDMADE VODKA',
  category: 'AMERICAN VODKAS',
  price: '30.00',
  bottleSizeId: 3,
  bottleSize: '750 ml',
  volumeMl: 750,
  bottlesPerCase: 12,
  stock: 4,
  quantityRule: { min: 1, max: null, increment: 1 },
};
const figure = (label: string) => screen.getByText(label).nextSibling as HTMLElement;

describe('Pricing Analysis dialog (spec 001 §2, §9)', () => {
  it('when opened for a 750 ml bottle at $30, then the per-ounce, per-shot, shots and markup figures show', () => {
    render(<PricingDialog product={vodka} onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Pricing Analysis' })).toBeInTheDocument();
    expect(figure('Price per ounce')).toHaveTextContent('$1.18');
    expect(figure('Price per shot (1.5 oz)')).toHaveTextContent('$1.77');
    expect(figure('Shots per bottle')).toHaveTextContent('16');
    const markup400 = screen.getByText('400% markup').parentElement!;
    expect(markup400).toHaveTextContent('Shot price$7.10');
    expect(markup400).toHaveTextContent('Profit per bottle$83.56');
    expect(screen.getByText('550% markup').parentElement!).toHaveTextContent('Profit per bottle$126.15');
  });

  it('when a custom price is typed, then it is used; text that is not a number falls back to the item price', () => {
    render(<PricingDialog product={vodka} onClose={() => {}} />);
    const box = screen.getByLabelText('Custom price (optional)');
    fireEvent.change(box, { target: { value: '$60' } });
    expect(figure('Price per ounce')).toHaveTextContent('$2.37');
    expect(screen.getByText('Calculating with $60.00.')).toBeInTheDocument();
    fireEvent.change(box, { target: { value: 'cheap' } });
    expect(figure('Price per ounce')).toHaveTextContent('$1.18');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Not a price: using the item price $30.00.')).toBeInTheDocument();
  });

  it('when the item has a real volume, then it is used; an unknown volume assumes 750 ml and says so', () => {
    const { rerender } = render(<PricingDialog product={{ ...vodka, bottleSize: '1.75 L', volumeMl: 1750 }} onClose={() => {}} />);
    expect(figure('Shots per bottle')).toHaveTextContent('39');
    rerender(<PricingDialog product={{ ...vodka, code: '1', bottleSize: 'Unknown Size', volumeMl: null }} onClose={() => {}} />);
    expect(figure('Shots per bottle')).toHaveTextContent('16');
    expect(screen.getByText('Size unknown: 750 ml assumed')).toBeInTheDocument();
  });

  it('when the dialog closes, then focus returns to the button that opened it', async () => {
    function Harness() {
      const [p, setP] = useState<Product | null>(null);
      return (
        <>
          <button type="button" onClick={() => setP(vodka)}>
            Pricing
          </button>
          <PricingDialog product={p} onClose={() => setP(null)} />
        </>
      );
    }
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Pricing' });
    opener.focus();
    fireEvent.click(opener);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('when Close is pressed, then onClose runs; no product keeps it closed', () => {
    const onClose = jest.fn();
    const { rerender } = render(<PricingDialog product={vodka} onClose={onClose} />);
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' })[0]);
    expect(onClose).toHaveBeenCalled();
    rerender(<PricingDialog product={null} onClose={onClose} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
