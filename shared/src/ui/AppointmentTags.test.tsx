import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppointmentStatusTag, OnlineTag } from './AppointmentTags';

describe('appointment tags (docs/product.md, Online booking)', () => {
  it('marks a visit the patient booked online, and says when the patient confirmed it', async () => {
    const user = userEvent.setup();
    const view = render(<OnlineTag appointment={{ source: 'online', confirmed_by: null }} />);
    const tag = screen.getByText('Online');
    expect(tag).toHaveAccessibleName('Booked by the patient online');
    view.rerender(<OnlineTag appointment={{ source: 'online', confirmed_by: 'patient' }} />);
    await user.hover(screen.getByText('Online'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Booked and confirmed by the patient online',
    );
  });

  it('says nothing of a visit booked at the desk, or of an answer from before online booking', () => {
    const { container } = render(
      <>
        <OnlineTag appointment={{ source: 'desk', confirmed_by: 'desk' }} />
        <OnlineTag appointment={{}} />
      </>,
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the status in its colour', () => {
    render(<AppointmentStatusTag status="cancelled" />);
    expect(screen.getByText('cancelled')).toHaveClass('ant-tag-red');
  });
});
