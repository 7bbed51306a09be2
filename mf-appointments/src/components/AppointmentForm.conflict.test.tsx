import { GONE_MEANWHILE_MESSAGE, STALE_WRITE_MESSAGE } from '@dental/shared';
import {
  createFakeApi,
  createFakeLiveEvents,
  type FakeApi,
  type FakeLiveEvents,
  findDialog,
  pageOf,
  renderScreen,
  staffMember,
  staleWrite,
} from '@dental/shared/testing';
import { waitFor, within } from '@testing-library/react';
import { CHAIRS, MICHAEL, RETIRED, SARAH, SETTINGS, visit } from '../testing/fixtures';
import { AppointmentForm } from './AppointmentForm';

/** Mia's visit as this desk opened it. */
const OPENED = visit({ version: 6 });
/** The same visit as another desk saved it meanwhile. */
const THEIRS = visit({
  version: 7,
  time: '11:30',
  notes: 'Moved by the front desk',
  treatment: 'Root Canal',
});
const ME = staffMember('receptionist', { id: 1 });
const OTHER_DESK = 2;

let api: FakeApi;
let events: FakeLiveEvents;
beforeEach(() => {
  api = createFakeApi();
  events = createFakeLiveEvents();
  api.onGet('/api/dentists').reply(200, pageOf([SARAH, MICHAEL, RETIRED]));
  api.onGet('/api/chairs').reply(200, { data: CHAIRS });
  api.onGet('/api/settings').reply(200, SETTINGS);
  api.onGet(/\/api\/dentists\/\d+\/free-times/).reply(200, {
    date: OPENED.date,
    duration: OPENED.duration,
    times: ['09:00', '10:00', '11:30'],
    open: [{ start: '09:00', end: '17:00' }],
    reason: null,
    message: null,
  });
});
afterEach(() => api.restore());

function renderForm() {
  const onSaved = jest.fn();
  const view = renderScreen(
    <AppointmentForm open appointment={OPENED} onClose={() => {}} onSaved={onSaved} />,
    { url: '/appointments', events, staff: ME },
  );
  return { ...view, onSaved };
}

async function openWithNotes(view: ReturnType<typeof renderForm>, notes: string) {
  const dialog = await findDialog('Edit Appointment');
  const field = within(dialog).getByLabelText('Notes');
  await waitFor(() => expect(field).toHaveValue(OPENED.notes));
  await view.user.clear(field);
  await view.user.type(field, notes);
  return dialog;
}

const save = (view: ReturnType<typeof renderForm>, dialog: HTMLElement) =>
  view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

describe('AppointmentForm: no edit is silently lost', () => {
  it('saves with If-Match naming the version it showed', async () => {
    api.onPut('/api/appointments/31').reply(200, { ...OPENED, notes: 'Bring X-rays', version: 7 });
    const view = renderForm();
    const dialog = await openWithNotes(view, 'Bring X-rays');
    await save(view, dialog);

    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    const [put] = api.sent('put', '/api/appointments/31');
    expect(put?.ifMatch).toBe('"6"');
    expect(put?.body).toMatchObject({ notes: 'Bring X-rays', time: '10:00' });
  });

  it('a stale Save (412) shows the alert; Load theirs fills the newer version, and saving names it', async () => {
    api.onPut('/api/appointments/31').replyOnce(412, staleWrite(THEIRS));
    api.onPut('/api/appointments/31').replyOnce(200, { ...THEIRS, version: 8 });
    const view = renderForm();
    const dialog = await openWithNotes(view, 'Bring X-rays');
    await save(view, dialog);

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(within(dialog).getByLabelText('Notes')).toHaveValue('Bring X-rays');
    await view.user.click(within(alert).getByRole('button', { name: 'Load theirs' }));

    await waitFor(() =>
      expect(within(dialog).getByLabelText('Notes')).toHaveValue('Moved by the front desk'),
    );
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(view.onSaved).not.toHaveBeenCalled();
    await save(view, dialog);
    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    const puts = api.sent('put', '/api/appointments/31');
    expect(puts.map((put) => put.ifMatch)).toEqual(['"6"', '"7"']);
    expect(puts[1]?.body).toMatchObject({ notes: 'Moved by the front desk', time: '11:30' });
  });

  it('a stale Save (412): Save mine over it re-sends what was typed with the newer tag', async () => {
    api.onPut('/api/appointments/31').replyOnce(412, staleWrite(THEIRS));
    api.onPut('/api/appointments/31').replyOnce(200, { ...THEIRS, notes: 'Bring X-rays', version: 8 });
    const view = renderForm();
    const dialog = await openWithNotes(view, 'Bring X-rays');
    await save(view, dialog);

    const alert = await within(dialog).findByRole('alert');
    await view.user.click(within(alert).getByRole('button', { name: 'Save mine over it' }));

    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    const puts = api.sent('put', '/api/appointments/31');
    expect(puts.map((put) => put.ifMatch)).toEqual(['"6"', '"7"']);
    expect(puts[1]?.body).toMatchObject({ notes: 'Bring X-rays', time: '10:00' });
  });

  it("another desk's change while open shows the alert without touching what was typed; Keep mine", async () => {
    api.onGet('/api/appointments/31').reply(200, THEIRS);
    api.onPut('/api/appointments/31').reply(200, { ...THEIRS, notes: 'Bring X-rays', version: 8 });
    const view = renderForm();
    const dialog = await openWithNotes(view, 'Bring X-rays');

    events.emit({ resource: 'appointment', id: 31, action: 'updated', by: OTHER_DESK });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(within(dialog).getByLabelText('Notes')).toHaveValue('Bring X-rays');

    await view.user.click(within(alert).getByRole('button', { name: 'Keep mine' }));
    expect(within(dialog).getByLabelText('Notes')).toHaveValue('Bring X-rays');
    // The alert and its button are gone: focus waits on the form's Save, not on the page's body.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /Save|Update/ })).toHaveFocus());
    await save(view, dialog);
    await waitFor(() => expect(view.onSaved).toHaveBeenCalled());
    expect(api.sent('put', '/api/appointments/31')[0]?.ifMatch).toBe('"7"');
  });

  it('a visit deleted at another desk: the alert says so and Save is disabled', async () => {
    const view = renderForm();
    const dialog = await openWithNotes(view, 'Bring X-rays');

    events.emit({ resource: 'appointment', id: 31, action: 'deleted', by: OTHER_DESK });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(GONE_MEANWHILE_MESSAGE);
    expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    expect(within(dialog).getByLabelText('Notes')).toHaveValue('Bring X-rays');
    expect(api.sent('put')).toHaveLength(0);
  });
});
