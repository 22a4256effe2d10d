import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dialog } from './dialog';

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open details
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Order details">
        <p>Body</p>
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('when opened without a Radix trigger and closed with Escape, then focus returns to the opening button', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open details' }));
    expect(screen.getByRole('dialog', { name: 'Order details' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open details' })).toHaveFocus();
  });
});
