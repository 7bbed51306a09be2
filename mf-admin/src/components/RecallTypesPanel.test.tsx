import type { RecallType } from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  refusal,
  renderScreen,
  staffMember,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { RecallTypesPanel } from './RecallTypesPanel';

const HYGIENE: RecallType = {
  id: 1,
  name: 'Hygiene recall',
  treatment: 'Regular Cleaning',
  interval_months: 6,
  active: true,
  version: 2,
};
const CHECKUP: RecallType = {
  id: 2,
  name: 'Checkup',
  treatment: 'Dental Checkup',
  interval_months: 12,
  active: false,
  version: 5,
};

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/recall-types').reply(200, { data: [HYGIENE, CHECKUP] });
});
afterEach(() => api.restore());

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const asAdmin = () =>
  renderScreen(<RecallTypesPanel canEdit />, { url: '/settings?tab=recall', staff: staffMember('admin') });

async function chooseIn(view: ReturnType<typeof asAdmin>, dialog: HTMLElement, field: string, title: string) {
  await view.user.click(within(dialog).getByLabelText(field));
  await view.user.click(await screen.findByTitle(title));
}

describe('RecallTypesPanel', () => {
  it("lists the clinic's recall types: name, treatment, interval, on or off", async () => {
    asAdmin();
    expect(await screen.findByText('Hygiene recall')).toBeInTheDocument();
    expect(within(row('Hygiene recall')).getByText('Regular Cleaning')).toBeInTheDocument();
    expect(within(row('Hygiene recall')).getByText('Every 6 months')).toBeInTheDocument();
    expect(within(row('Checkup')).getByText('Every 12 months')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Active: Hygiene recall' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Active: Checkup' })).not.toBeChecked();
  });

  it('adds a recall type (201)', async () => {
    const added: RecallType = {
      id: 3,
      name: 'Fluoride',
      treatment: 'Regular Cleaning',
      interval_months: 3,
      active: true,
      version: 1,
    };
    api.onPost('/api/recall-types').reply(201, added);
    const view = asAdmin();
    await screen.findByText('Hygiene recall');
    await view.user.click(screen.getByRole('button', { name: 'Add recall type' }));
    const dialog = await findDialog('Add recall type');
    // Nothing is sent until the fields are right.
    await view.user.click(within(dialog).getByRole('button', { name: 'Add recall type' }));
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(2));
    expect(api.sent('post')).toHaveLength(0);

    await view.user.type(within(dialog).getByLabelText('Name'), 'Fluoride');
    await chooseIn(view, dialog, 'Treatment', 'Regular Cleaning');
    const months = within(dialog).getByLabelText('Interval (months)');
    await view.user.clear(months);
    await view.user.type(months, '3');
    await view.user.click(within(dialog).getByRole('button', { name: 'Add recall type' }));
    await waitFor(() => expect(api.sent('post')).toHaveLength(1));
    expect(api.sent('post')[0]?.body).toEqual({
      name: 'Fluoride',
      treatment: 'Regular Cleaning',
      interval_months: 3,
      active: true,
    });
    expect(await screen.findByText('Fluoride was added')).toBeInTheDocument();
  });

  it('edits a recall type as shown (If-Match) and says a taken name beside the name', async () => {
    api
      .onPut('/api/recall-types/1')
      .replyOnce(
        400,
        refusal('Validation failed', [{ field: 'interval_months', message: 'At most 60 months' }]),
      );
    api.onPut('/api/recall-types/1').replyOnce(409, refusal('A recall type of this name exists'));
    api.onPut('/api/recall-types/1').reply(200, { ...HYGIENE, interval_months: 4, version: 3 });
    const view = asAdmin();
    await view.user.click(await screen.findByRole('button', { name: 'Edit Hygiene recall' }));
    const dialog = await findDialog('Edit recall type');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Hygiene recall');
    expect(within(dialog).getByLabelText('Interval (months)')).toHaveValue('6');
    const months = within(dialog).getByLabelText('Interval (months)');
    await view.user.clear(months);
    await view.user.type(months, '4');

    // The server's field error lands beside its field.
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    const monthsItem = months.closest('.ant-form-item') as HTMLElement;
    expect(await within(monthsItem).findByText('At most 60 months')).toBeInTheDocument();

    // A name taken by another type, beside the name.
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    const nameItem = within(dialog).getByLabelText('Name').closest('.ant-form-item') as HTMLElement;
    expect(await within(nameItem).findByText('A recall type of this name exists')).toBeInTheDocument();

    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Hygiene recall was saved')).toBeInTheDocument();
    const puts = api.sent('put');
    expect(puts).toHaveLength(3);
    expect(puts[2]?.body).toEqual({
      name: 'Hygiene recall',
      treatment: 'Regular Cleaning',
      interval_months: 4,
      active: true,
    });
    expect(puts[2]?.ifMatch).toBe('"2"');
  });

  it('turns a type on or off with its switch, as shown (If-Match)', async () => {
    api.onPut('/api/recall-types/2').reply(200, { ...CHECKUP, active: true, version: 6 });
    const view = asAdmin();
    await view.user.click(await screen.findByRole('switch', { name: 'Active: Checkup' }));
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toMatchObject({ name: 'Checkup', active: true });
    expect(api.sent('put')[0]?.ifMatch).toBe('"5"');
    expect(await screen.findByText('Checkup is on')).toBeInTheDocument();
  });

  it('is read-only for anyone but an admin', async () => {
    renderScreen(<RecallTypesPanel canEdit={false} />, { url: '/settings?tab=recall' });
    expect(await screen.findByText('Hygiene recall')).toBeInTheDocument();
    expect(within(row('Hygiene recall')).getByText('On')).toBeInTheDocument();
    expect(within(row('Checkup')).getByText('Off')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add recall type' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Only an administrator can change them/)).toBeInTheDocument();
  });
});
