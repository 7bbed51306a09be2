import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ErrorBanner } from './ErrorBanner';

describe('ErrorBanner (docs/product.md, Error messages: a dismissible red banner)', () => {
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

  it('scrolls into view when it appears, if asked to (a tall dialog is scrolled down to Save)', () => {
    const scrolled: Element[] = [];
    const scrollIntoView = jest.fn(function (this: Element) {
      scrolled.push(this);
    });
    Object.defineProperty(Element.prototype, 'scrollIntoView', { value: scrollIntoView, configurable: true });
    try {
      const view = render(<ErrorBanner message={null} reveal />);
      expect(scrollIntoView).not.toHaveBeenCalled();
      view.rerender(<ErrorBanner message="The server failed" reveal />);
      expect(scrolled).toHaveLength(1);
      expect(scrolled[0]).toContainElement(screen.getByRole('alert'));
      // A page banner stays where it is: the page's top is where the user looks.
      render(<ErrorBanner message="Failed to fetch patients" />);
      expect(scrollIntoView).toHaveBeenCalledTimes(1);
    } finally {
      delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });
});
