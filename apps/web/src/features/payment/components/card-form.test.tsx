import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CARD_MESSAGES } from '@portal/contracts';
import { CardForm } from './card-form';

function setup() {
  const onPay = jest.fn();
  render(<CardForm payLabel="Pay $59.98" processing={false} onPay={onPay} />);
  return { onPay, user: userEvent.setup() };
}

describe('card form (spec 002 §5)', () => {
  it('when submitted empty, then every card rule shows its message verbatim and nothing is paid', async () => {
    const { onPay, user } = setup();
    await user.click(screen.getByRole('button', { name: /Pay \$59\.98/ }));
    expect(await screen.findByText(CARD_MESSAGES.holderRequired)).toBeInTheDocument();
    expect(screen.getByText(CARD_MESSAGES.number)).toBeInTheDocument();
    expect(screen.getByText(CARD_MESSAGES.expiration)).toBeInTheDocument();
    expect(screen.getByText(CARD_MESSAGES.securityCode)).toBeInTheDocument();
    expect(screen.getByText(CARD_MESSAGES.zip)).toBeInTheDocument();
    expect(screen.getByLabelText('Card number')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Card number')).toHaveAccessibleDescription(CARD_MESSAGES.number);
    expect(onPay).not.toHaveBeenCalled();
  });

  it('when a card number is typed, then it is grouped by 4 and capped at 16 digits', async () => {
    const { user } = setup();
    const input = screen.getByLabelText('Card number');
    await user.type(input, '41111111111111119999');
    expect(input).toHaveValue('4111 1111 1111 1111');
  });

  it('when the expiration is in the past or not a month, then the expiration message shows', async () => {
    const { user } = setup();
    const exp = screen.getByLabelText('Expiration (MM/YY)');
    await user.type(exp, '0120');
    expect(exp).toHaveValue('01/20');
    await user.tab();
    expect(await screen.findByText(CARD_MESSAGES.expiration)).toBeInTheDocument();
    await user.clear(exp);
    await user.type(exp, '1399');
    expect(screen.getByText(CARD_MESSAGES.expiration)).toBeInTheDocument();
  });

  it('when a short number, 2-digit security code and 4-digit ZIP are entered, then their messages show', async () => {
    const { user, onPay } = setup();
    await user.type(screen.getByLabelText('Card holder name'), 'Blake Buyer');
    await user.type(screen.getByLabelText('Card number'), '411111111111');
    await user.type(screen.getByLabelText('Expiration (MM/YY)'), '1299');
    await user.type(screen.getByLabelText('Security code'), '12');
    await user.type(screen.getByLabelText('ZIP code'), '5030');
    await user.click(screen.getByRole('button', { name: /Pay/ }));
    expect(await screen.findByText(CARD_MESSAGES.number)).toBeInTheDocument();
    expect(screen.getByText(CARD_MESSAGES.securityCode)).toBeInTheDocument();
    expect(screen.getByText(CARD_MESSAGES.zip)).toBeInTheDocument();
    expect(onPay).not.toHaveBeenCalled();
  });

  it('when a holder name is longer than 50, then input stops at 50 characters', async () => {
    const { user } = setup();
    const name = screen.getByLabelText('Card holder name');
    await user.type(name, 'x'.repeat(60));
    expect(name).toHaveValue('x'.repeat(50));
  });

  it('when the card is valid, then onPay gets it with the spaces removed', async () => {
    const { user, onPay } = setup();
    await user.type(screen.getByLabelText('Card holder name'), 'Blake Buyer');
    await user.type(screen.getByLabelText('Card number'), '4111111111111111');
    await user.type(screen.getByLabelText('Expiration (MM/YY)'), '1299');
    await user.type(screen.getByLabelText('Security code'), '1234');
    await user.type(screen.getByLabelText('ZIP code'), '50309');
    await user.click(screen.getByRole('button', { name: /Pay/ }));
    expect(onPay).toHaveBeenCalledWith({
      cardName: 'Blake Buyer',
      cardNumber: '4111111111111111',
      expiration: '12/99',
      securityCode: '1234',
      zipCode: '50309',
    });
  });

  it('when processing, then the button says Processing... and is disabled', () => {
    render(<CardForm payLabel="Pay $1.00" processing onPay={jest.fn()} />);
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeDisabled();
  });
});
