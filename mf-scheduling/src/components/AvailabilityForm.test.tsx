import { STALE_WRITE_MESSAGE, type WireAvailability, type WireDentist } from '@dental/shared';
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
import { AvailabilityForm } from './AvailabilityForm';

const SARAH = { id: 1, name: 'Dr. Sarah Johnson', status: 'active', working_days: '135' } as WireDentist;
/** Dr. Johnson's day as this desk opened it. */
const DAY: WireAvailability = {
  id: 11,
  dentist_id: 1,
  dentist_name: 'Dr. Sarah Johnson',
  date: '2099-03-04',
  time_slots: [
    { start: '09:00', end: '10:00', available: true },
    { start: '10:00', end: '11:00', available: true },
  ],
  status: 'active',
  created_at: '2099-01-01T00:00:00Z',
  updated_at: '2099-01-01T00:00:00Z',
  version: 5,
};
const THEIRS: WireAvailability = { ...DAY, status: 'inactive', version: 6 };

let api: FakeApi;
let events: FakeLiveEvents;
beforeEach(() => {
  api = createFakeApi();
  events = createFakeLiveEvents();
});
afterEach(() => api.restore());

function renderForm() {
  const onSaved = jest.fn();
  const view = renderScreen(
    <AvailabilityForm
      open
      day={DAY}
      dentists={[SARAH]}
      ownDentistId={null}
      onClose={() => {}}
      onSaved={onSaved}
    />,
    { events, staff: staffMember('admin', { id: 1 }) },
  );
  return { ...view, onSaved };
}

const saveButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Save Changes' });

describe('AvailabilityForm: no edit is silently lost', () => {
  it('saves with If-Match naming the version it showed', async () => {
    api.onPut('/api/availability/11').reply(200, { ...DAY, version: 6 });
    const view = renderForm();
    const dialog = await findDialog('Edit Availability');
    await waitFor(() => expect(within(dialog).getByLabelText('Date')).toHaveValue('2099-03-04'));
    await view.user.click(saveButton(dialog));
    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    expect(api.sent('put', '/api/availability/11')[0]?.ifMatch).toBe('"5"');
  });

  it('a stale Save (412) shows the alert; Save mine over it re-sends with the newer tag', async () => {
    api.onPut('/api/availability/11').replyOnce(412, staleWrite(THEIRS));
    api.onPut('/api/availability/11').replyOnce(200, { ...DAY, version: 7 });
    const view = renderForm();
    const dialog = await findDialog('Edit Availability');
    await waitFor(() => expect(within(dialog).getByLabelText('Date')).toHaveValue('2099-03-04'));
    await view.user.click(saveButton(dialog));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    await view.user.click(within(alert).getByRole('button', { name: 'Save mine over it' }));
    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    expect(api.sent('put', '/api/availability/11').map((put) => put.ifMatch)).toEqual(['"5"', '"6"']);
  });

  it("another desk's change while open shows the alert", async () => {
    api.onGet('/api/availability/11').reply(200, THEIRS);
    renderForm();
    const dialog = await findDialog('Edit Availability');
    events.emit({ resource: 'availability', id: 11, action: 'updated', by: 4 });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(STALE_WRITE_MESSAGE);
  });
});
