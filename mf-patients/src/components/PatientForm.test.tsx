import { GONE_MEANWHILE_MESSAGE, STALE_WRITE_MESSAGE, type WirePatient } from '@dental/shared';
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
import { act, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { PatientForm } from './PatientForm';

const MIA: WirePatient = {
  id: 7,
  name: 'Mia Martin',
  email: 'mia@example.com',
  phone: '555-0107',
  dateOfBirth: '1990-04-12',
  address: '1 Harbour Road',
  emergencyContact: 'Leo Martin 555-0199',
  medicalHistory: 'Penicillin allergy',
  lastVisit: '2026-10-01',
  nextAppointment: null,
  status: 'active',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  version: 3,
};
/** Mia as another desk saved her meanwhile. */
const THEIRS: WirePatient = { ...MIA, phone: '555-0999', address: '9 Quay Street', version: 4 };
const ME = staffMember('receptionist', { id: 1 });
/** Another member of staff, at another desk. */
const OTHER_DESK = 2;

let api: FakeApi;
let events: FakeLiveEvents;
beforeEach(() => {
  api = createFakeApi();
  events = createFakeLiveEvents();
});
afterEach(() => api.restore());

/** Hands the form another object for its patient, as a list read again does. */
let replacePatient: (patient: WirePatient) => void = () => {};

function FormOnList({ onSaved }: { onSaved: (patient: WirePatient) => void }) {
  const [patient, setPatient] = useState(MIA);
  replacePatient = setPatient;
  return <PatientForm open patient={patient} onClose={() => {}} onSaved={onSaved} />;
}

function renderForm() {
  const onSaved = jest.fn();
  const view = renderScreen(<FormOnList onSaved={onSaved} />, { events, staff: ME });
  return { ...view, onSaved };
}

const saveButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Save Changes' });

async function typeAddress(user: ReturnType<typeof renderForm>['user'], dialog: HTMLElement, text: string) {
  const address = within(dialog).getByLabelText('Address');
  await user.clear(address);
  await user.type(address, text);
}

describe('PatientForm: no edit is silently lost', () => {
  it('saves with If-Match naming the version it showed', async () => {
    api.onPut('/api/patients/7').reply(200, { ...MIA, address: '2 Mill Lane', version: 4 });
    const { user, onSaved } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill Lane');
    await user.click(saveButton(dialog));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const [put] = api.sent('put', '/api/patients/7');
    expect(put?.ifMatch).toBe('"3"');
    expect(put?.body).toMatchObject({ address: '2 Mill Lane' });
    expect(put?.body).not.toHaveProperty('version');
  });

  it('a stale Save (412) shows the alert; Load theirs fills the newer version', async () => {
    api.onPut('/api/patients/7').reply(412, staleWrite(THEIRS));
    const { user, onSaved } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill Lane');
    await user.click(saveButton(dialog));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    // Typed values stay until the user chooses.
    expect(within(dialog).getByLabelText('Address')).toHaveValue('2 Mill Lane');
    await user.click(within(alert).getByRole('button', { name: 'Load theirs' }));

    await waitFor(() => expect(within(dialog).getByLabelText('Address')).toHaveValue('9 Quay Street'));
    expect(within(dialog).getByLabelText('Phone')).toHaveValue('555-0999');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();

    // The next Save is made against their version.
    api.onPut('/api/patients/7').reply(200, { ...THEIRS, version: 5 });
    await user.click(saveButton(dialog));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.sent('put', '/api/patients/7').at(-1)?.ifMatch).toBe('"4"');
  });

  it('a stale Save (412): Save mine over it sends what was typed against their version', async () => {
    api.onPut('/api/patients/7').replyOnce(412, staleWrite(THEIRS));
    api.onPut('/api/patients/7').replyOnce(200, { ...THEIRS, address: '2 Mill Lane', version: 5 });
    const { user, onSaved } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill Lane');
    await user.click(saveButton(dialog));

    const alert = await within(dialog).findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Save mine over it' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const puts = api.sent('put', '/api/patients/7');
    expect(puts.map((put) => put.ifMatch)).toEqual(['"3"', '"4"']);
    expect(puts[1]?.body).toMatchObject({ address: '2 Mill Lane', phone: '555-0107' });
  });

  it("another desk's change while open shows the alert and leaves the typing alone; Keep mine saves over it", async () => {
    api.onGet('/api/patients/7').reply(200, THEIRS);
    api.onPut('/api/patients/7').reply(200, { ...THEIRS, address: '2 Mill Lane', version: 5 });
    const { user, onSaved } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill');

    events.emit({ resource: 'patient', id: 7, action: 'updated', by: OTHER_DESK });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(within(dialog).getByLabelText('Address')).toHaveValue('2 Mill');
    // Typing carries on while the alert shows.
    await user.type(within(dialog).getByLabelText('Address'), ' Lane');
    expect(within(dialog).getByLabelText('Address')).toHaveValue('2 Mill Lane');

    await user.click(within(alert).getByRole('button', { name: 'Keep mine' }));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Address')).toHaveValue('2 Mill Lane');
    await user.click(saveButton(dialog));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.sent('put', '/api/patients/7')[0]?.ifMatch).toBe('"4"');
  });

  it("another desk's change: Load theirs reads the patient afresh and fills the form with it", async () => {
    api.onGet('/api/patients/7').replyOnce(200, THEIRS);
    api.onGet('/api/patients/7').replyOnce(200, { ...THEIRS, name: 'Mia Martin-Lee', version: 5 });
    const { user } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill Lane');

    events.emit({ resource: 'patient', id: 7, action: 'updated', by: OTHER_DESK });
    const alert = await within(dialog).findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Load theirs' }));

    await waitFor(() => expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Mia Martin-Lee'));
    expect(within(dialog).getByLabelText('Address')).toHaveValue('9 Quay Street');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('ignores changes of other patients and a version it already has (the echo of its own Save)', async () => {
    api.onGet('/api/patients/7').reply(200, MIA);
    const { user } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill Lane');

    events.emit({ resource: 'patient', id: 8, action: 'updated', by: OTHER_DESK });
    events.emit({ resource: 'dentist', id: 7, action: 'updated', by: OTHER_DESK });
    events.emit({ resource: 'patient', id: 7, action: 'updated', by: OTHER_DESK });
    // The only event it acted on read the patient: still the version shown, so nothing to say.
    await waitFor(() => expect(api.sent('get', '/api/patients/7')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Address')).toHaveValue('2 Mill Lane');
  });

  it('a change of many patients at once (an import, by the server) that includes this one shows the alert', async () => {
    api.onGet('/api/patients/7').reply(200, THEIRS);
    const { user } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill Lane');

    events.emit({ resource: 'patient', id: null, action: 'updated', by: null });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(within(dialog).getByLabelText('Address')).toHaveValue('2 Mill Lane');
  });

  it('a patient deleted at another desk: the alert says so and Save is disabled', async () => {
    const { user } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill Lane');

    events.emit({ resource: 'patient', id: 7, action: 'deleted', by: OTHER_DESK });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(GONE_MEANWHILE_MESSAGE);
    expect(saveButton(dialog)).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(within(dialog).getByLabelText('Address')).toHaveValue('2 Mill Lane');
    expect(api.sent('put')).toHaveLength(0);
  });

  it('the same account signed in at another desk is another desk: its delete shows the alert too', async () => {
    const { user } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill Lane');

    events.emit({ resource: 'patient', id: 7, action: 'deleted', by: ME.id });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(GONE_MEANWHILE_MESSAGE);
    expect(saveButton(dialog)).toBeDisabled();
  });

  it('a Save answered 404 for a patient deleted meanwhile disables Save', async () => {
    api.onPut('/api/patients/7').reply(404, { message: 'Patient not found' });
    api.onGet('/api/patients/7').reply(404, { message: 'Patient not found' });
    const { user } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await user.click(saveButton(dialog));

    await waitFor(() => expect(saveButton(dialog)).toBeDisabled());
    expect(screen.getByText(GONE_MEANWHILE_MESSAGE)).toBeInTheDocument();
  });

  it('the patient read again in the background (a new object, a newer version) leaves the typing alone', async () => {
    api.onPut('/api/patients/7').reply(200, { ...MIA, version: 5 });
    const { user } = renderForm();
    const dialog = await findDialog('Edit Patient');
    await typeAddress(user, dialog, '2 Mill Lane');

    act(() => replacePatient({ ...THEIRS }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(dialog).getByLabelText('Address')).toHaveValue('2 Mill Lane');
    expect(within(dialog).getByLabelText('Phone')).toHaveValue('555-0107');
    // Save still names the version the form showed: overwriting theirs is a decision.
    await user.click(saveButton(dialog));
    await waitFor(() => expect(api.sent('put', '/api/patients/7')).toHaveLength(1));
    expect(api.sent('put', '/api/patients/7')[0]?.ifMatch).toBe('"3"');
  });
});
