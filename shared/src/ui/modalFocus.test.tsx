import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StylelessUi } from '../testing/StylelessUi';
import { Modal } from './forms';
import { Button } from './index';
import { UiProvider } from './UiProvider';

function OpenDialog() {
  return (
    <>
      <Button>Behind the dialog</Button>
      <Modal
        open
        title="New Appointment"
        footer={[<Button key="cancel">Cancel</Button>, <Button key="book">Book</Button>]}
      >
        <input aria-label="Patient Name" />
      </Modal>
    </>
  );
}

describe('Tab in an open dialog', () => {
  it('goes from its last control to its first, and back with Shift+Tab: never out of the dialog', async () => {
    const user = userEvent.setup();
    render(
      <StylelessUi>
        <UiProvider>
          <OpenDialog />
        </UiProvider>
      </StylelessUi>,
    );
    const book = await screen.findByRole('button', { name: 'Book' });
    book.focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(book).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
  });
});
