import { fireEvent, render, screen } from '@testing-library/react';
import { Pagination, pageItems, showingText } from './pagination';

describe('pagination (spec 001 §2)', () => {
  it.each([
    [1, 1, [1]],
    [3, 5, [1, 2, 3, 4, 5]],
    [1, 10, [1, 2, 'ellipsis-end', 10]],
    [2, 10, [1, 2, 3, 'ellipsis-end', 10]],
    [3, 10, [1, 2, 3, 4, 'ellipsis-end', 10]],
    [5, 10, [1, 'ellipsis-start', 4, 5, 6, 'ellipsis-end', 10]],
    [8, 10, [1, 'ellipsis-start', 7, 8, 9, 10]],
    [10, 10, [1, 'ellipsis-start', 9, 10]],
    [4, 6, [1, 2, 3, 4, 5, 6]],
    [1, 6, [1, 2, 'ellipsis-end', 6]],
  ])('when on page %i of %i, then the items are %j', (current, total, expected) => {
    expect(pageItems(current, total)).toEqual(expected);
  });

  it('when counting, then it says Showing a-b of n items', () => {
    expect(showingText(1, 30, 64)).toBe('Showing 1-30 of 64 items');
    expect(showingText(3, 30, 64)).toBe('Showing 61-64 of 64 items');
    expect(showingText(1, 30, 0)).toBe('Showing 0 of 0 items');
  });

  it('when there are many pages, then numbers, ellipses, previous and next work', () => {
    const onPageChange = jest.fn();
    render(<Pagination page={5} pageSize={30} total={300} onPageChange={onPageChange} />);
    expect(screen.getByText('Showing 121-150 of 300 items')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 5' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getAllByText('…')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Page 2' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Page 10' }));
    expect(onPageChange).toHaveBeenLastCalledWith(10);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(4);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(6);
  });

  it('when on the first page, then previous is disabled; one page hides the navigation', () => {
    const { rerender } = render(<Pagination page={1} pageSize={30} total={64} onPageChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeEnabled();
    rerender(<Pagination page={1} pageSize={30} total={12} onPageChange={() => {}} />);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(screen.getByText('Showing 1-12 of 12 items')).toBeInTheDocument();
  });
});
