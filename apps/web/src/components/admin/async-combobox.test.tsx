import { useCallback, useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AsyncCombobox, type ComboOption, type ComboPage } from './async-combobox';

/** 10,000 outlets "Outlet 00000" … "Outlet 09999"; every 7th is out of reach. */
const ALL: ComboOption[] = Array.from({ length: 10_000 }, (_, i) => {
  const n = String(i).padStart(5, '0');
  return { value: String(i), label: `Outlet ${n}`, hint: `OUT-${n}`, disabled: i % 7 === 3, disabledHint: 'Not yours to change' };
});

function Harness({
  load,
  initial = [] as ComboOption[],
}: {
  load: (q: string, signal: AbortSignal) => Promise<ComboPage>;
  initial?: ComboOption[];
}) {
  const [selected, setSelected] = useState(initial);
  const loader = useCallback((q: string, signal: AbortSignal) => load(q, signal), [load]);
  return (
    <>
      <AsyncCombobox
        label="Outlets"
        placeholder="Add outlets…"
        searchPlaceholder="Search outlets by name or code"
        selected={selected}
        onToggle={(o, on) => setSelected((s) => (on ? [...s, o] : s.filter((x) => x.value !== o.value)))}
        load={loader}
        assignedOnlyLabel="Assigned only"
      />
      <output data-testid="chosen">{selected.map((o) => o.value).join(',')}</output>
    </>
  );
}

const serverLoad = () =>
  jest.fn(async (q: string) => {
    const hits = ALL.filter(
      (o) => !q || o.label.toLowerCase().includes(q.toLowerCase()) || o.hint!.toLowerCase().includes(q.toLowerCase()),
    );
    return { items: hits.slice(0, 20), total: hits.length };
  });

describe('AsyncCombobox (issue 26 §4)', () => {
  it('when opened, then it asks the server for the first page and says how many match in all', async () => {
    const load = serverLoad();
    render(<Harness load={load} />);
    expect(screen.getByText('Outlets')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Outlets/ }));
    expect(await screen.findByText('Showing 20 of 10,000: type to narrow')).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith('', expect.any(AbortSignal));
    expect(screen.getAllByRole('option')).toHaveLength(20);
  });

  it('when typing, then the search goes to the server (debounced) and Enter picks the highlighted match as a chip', async () => {
    const load = serverLoad();
    render(<Harness load={load} />);
    await userEvent.click(screen.getByLabelText('Outlets'));
    const input = await screen.findByRole('combobox', { name: 'Search outlets' });
    await userEvent.type(input, '09876');
    await waitFor(() => expect(load).toHaveBeenLastCalledWith('09876', expect.any(AbortSignal)));
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('chosen')).toHaveTextContent('9876');
    const chips = screen.getByRole('list', { name: 'Selected outlets' });
    expect(within(chips).getByText('Outlet 09876')).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /Outlet 09876/ })).toHaveAttribute('aria-checked', 'true');
  });

  it('arrows move the highlight, a disabled match cannot be picked, Escape closes and focus returns to the trigger', async () => {
    const load = serverLoad();
    render(<Harness load={load} />);
    const trigger = screen.getByLabelText('Outlets');
    trigger.focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByText('Showing 20 of 10,000: type to narrow');
    // Option 0 is highlighted; ↓ ↓ ↓ skips the disabled Outlet 00003 on the way to 00004.
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    expect(screen.getByTestId('chosen')).toHaveTextContent('4');
    await userEvent.click(screen.getByRole('option', { name: /Outlet 00003/ }));
    expect(screen.getByTestId('chosen')).toHaveTextContent(/^4$/);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(trigger).toHaveFocus();
  });

  it('"Assigned only" lists only the chosen ones without asking the server; a chip removes its option', async () => {
    const load = serverLoad();
    render(<Harness load={load} initial={[ALL[5], ALL[6], ALL[3]]} />);
    expect(screen.getByText('(read-only)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Outlet 00003' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Outlets'));
    await screen.findByText('Showing 20 of 10,000: type to narrow');
    const calls = load.mock.calls.length;
    await userEvent.click(screen.getByRole('switch', { name: 'Assigned only' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      expect.stringContaining('Outlet 00005'),
      expect.stringContaining('Outlet 00006'),
      expect.stringContaining('Outlet 00003'),
    ]);
    expect(load.mock.calls.length).toBe(calls);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Remove Outlet 00005' }));
    expect(screen.getByTestId('chosen')).toHaveTextContent(/^6,3$/);
  });

  it('when the server fails, then the message shows in the list', async () => {
    const load = jest.fn(async () => {
      throw new Error('Failed to load outlets.');
    });
    render(<Harness load={load} />);
    await userEvent.click(screen.getByLabelText('Outlets'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load outlets.');
    await act(async () => {});
  });
});
