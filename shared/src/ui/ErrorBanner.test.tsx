import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ErrorBanner } from './ErrorBanner';

describe('ErrorBanner (spec §8: a dismissible red banner)', () => {
  it('always has a × that closes it, with or without a handler of its own', async () => {
    const user = userEvent.setup();
    const onRetry = jest.fn();
    const view = render(<ErrorBanner message="Failed to fetch patients" onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch patients');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();

    // A different failure shows again; so does the same one after a success.
    view.rerender(<ErrorBanner message="Failed to fetch dentists" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch dentists');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    view.rerender(<ErrorBanner message={null} />);
    view.rerender(<ErrorBanner message="Failed to fetch dentists" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch dentists');
  });

  it("tells its owner when closed, so the owner's error can be cleared", async () => {
    const user = userEvent.setup();
    const onClose = jest.fn();
    render(<ErrorBanner message="Failed to delete patient" onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
