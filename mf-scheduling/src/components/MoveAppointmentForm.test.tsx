import { type Appointment, endTimeOf, STALE_WRITE_MESSAGE } from '@dental/shared';
import { useMutation } from '@dental/shared/kit';
import {
  createFakeApi,
  createFakeLiveEvents,
  type FakeApi,
  type FakeLiveEvents,
  findDialog,
  renderScreen,
  staffMember,
  staleWrite,
} from '@dental/shared/testing';
import { waitFor, within } from '@testing-library/react';
import { type MoveTarget, moveAppointment } from '../api/calendar';
import { MoveAppointmentForm } from './MoveAppointmentForm';

/** Mia's visit as the calendar showed it. */
const VISIT: Appointment = {
  id: 31,
  patient: 'Mia Martin',
  patient_id: 7,
  phone: '555-0107',
  dentist_id: 2,
  dentist_name: 'Dr. Michael Chen',
  date: '2099-12-02',
  time: '10:00',
  duration: 30,
  end_time: endTimeOf('10:00', 30),
  treatment: 'Dental Checkup',
  status: 'pending',
  notes: 'Sensitive upper left molar',
  outside_hours: false,
  outside_hours_reason: null,
  overlapping: false,
  created_at: '2099-01-01T00:00:00Z',
  updated_at: '2099-01-01T00:00:00Z',
  version: 3,
};
/** Another desk changed its notes meanwhile. */
const THEIRS: Appointment = { ...VISIT, notes: 'Needs an X-ray first', version: 4 };

let api: FakeApi;
let events: FakeLiveEvents;
beforeEach(() => {
  api = createFakeApi();
  events = createFakeLiveEvents();
});
afterEach(() => api.restore());

/** The form as the Calendar uses it: its move is the page's mutation. */
function Calendar({ onMoved }: { onMoved: () => void }) {
  const move = useMutation({
    mutationFn: ({ appointment, to }: { appointment: Appointment; to: MoveTarget }) =>
      moveAppointment(appointment, to),
    onSuccess: onMoved,
  });
  return (
    <MoveAppointmentForm
      appointment={VISIT}
      saving={move.isPending}
      dentists={[{ id: 2, name: 'Dr. Michael Chen' }]}
      onClose={() => {}}
      onMove={(appointment, to) => move.mutateAsync({ appointment, to })}
    />
  );
}

function renderForm() {
  const onMoved = jest.fn();
  const view = renderScreen(<Calendar onMoved={onMoved} />, {
    events,
    staff: staffMember('receptionist', { id: 1 }),
  });
  return { ...view, onMoved };
}

async function moveTo(view: ReturnType<typeof renderForm>, time: string) {
  const dialog = await findDialog('Move Appointment');
  const field = within(dialog).getByLabelText('New time');
  await waitFor(() => expect(field).toHaveValue('10:00'));
  await view.user.clear(field);
  await view.user.type(field, time);
  return dialog;
}

const moveButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Move' });

describe('MoveAppointmentForm: no move silently overwrites', () => {
  it('moves with If-Match naming the version the calendar showed', async () => {
    api.onPut('/api/appointments/31').reply(200, { ...VISIT, time: '11:00', version: 4 });
    const view = renderForm();
    const dialog = await moveTo(view, '11:00');
    await view.user.click(moveButton(dialog));
    await waitFor(() => expect(view.onMoved).toHaveBeenCalled());
    const [put] = api.sent('put', '/api/appointments/31');
    expect(put?.ifMatch).toBe('"3"');
    expect(put?.body).toMatchObject({ time: '11:00', notes: 'Sensitive upper left molar' });
  });

  it('a stale move (412): Save mine over it moves their version, keeping their other changes', async () => {
    api.onPut('/api/appointments/31').replyOnce(412, staleWrite(THEIRS));
    api.onPut('/api/appointments/31').replyOnce(200, { ...THEIRS, time: '11:00', version: 5 });
    const view = renderForm();
    const dialog = await moveTo(view, '11:00');
    await view.user.click(moveButton(dialog));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(within(dialog).getByLabelText('New time')).toHaveValue('11:00');
    await view.user.click(within(alert).getByRole('button', { name: 'Save mine over it' }));

    await waitFor(() => expect(view.onMoved).toHaveBeenCalled());
    const puts = api.sent('put', '/api/appointments/31');
    expect(puts.map((put) => put.ifMatch)).toEqual(['"3"', '"4"']);
    expect(puts[1]?.body).toMatchObject({ time: '11:00', notes: 'Needs an X-ray first' });
  });

  it("another desk's change while open shows the alert; the new time typed stays", async () => {
    api.onGet('/api/appointments/31').reply(200, THEIRS);
    const view = renderForm();
    const dialog = await moveTo(view, '11:00');
    events.emit({ resource: 'appointment', id: 31, action: 'updated', by: 3 });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(within(dialog).getByLabelText('New time')).toHaveValue('11:00');
  });
});
