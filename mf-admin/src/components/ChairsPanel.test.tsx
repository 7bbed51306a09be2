import type { Chair } from '@dental/shared';
import {
  createFakeApi,
  type FakeApi,
  findDialog,
  pageOf,
  refusal,
  renderScreen,
  staffMember,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { ChairsPanel } from './ChairsPanel';

const chair = (id: number, name: string, position: number, extra: Partial<Chair> = {}): Chair => ({
  id,
  name,
  position,
  in_service: true,
  bookable_online: true,
  default_dentist_id: null,
  default_dentist_name: null,
  version: 1,
  ...extra,
});
const ONE = chair(1, 'Chair 1', 1, {
  default_dentist_id: 7,
  default_dentist_name: 'Dr. Sarah Johnson',
  version: 3,
});
const TWO = chair(2, 'Chair 2', 2, { in_service: false, bookable_online: false });
const THREE = chair(3, 'Hygiene Room', 3);

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/chairs').reply(200, { data: [ONE, TWO, THREE] });
  api.onGet('/api/dentists').reply(
    200,
    pageOf([
      { id: 7, name: 'Dr. Sarah Johnson', status: 'active' },
      { id: 8, name: 'Dr. Michael Chen', status: 'active' },
      { id: 9, name: 'Dr. Away', status: 'inactive' },
    ]),
  );
});
afterEach(() => api.restore());

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const asAdmin = () =>
  renderScreen(<ChairsPanel canEdit />, { url: '/settings?tab=chairs', staff: staffMember('admin') });

describe('ChairsPanel', () => {
  it("lists the clinic's chairs in order: default dentist, in service or not, bookable online", async () => {
    asAdmin();
    expect(await screen.findByText('Chair 1')).toBeInTheDocument();
    expect(
      screen
        .getAllByRole('row')
        .slice(1)
        .map((tr) => within(tr).getAllByRole('cell')[0]?.textContent),
    ).toEqual(['Chair 1', 'Chair 2', 'Hygiene Room']);
    expect(within(row('Chair 1')).getByText('Dr. Sarah Johnson')).toBeInTheDocument();
    expect(within(row('Chair 1')).getByText('In service')).toBeInTheDocument();
    expect(within(row('Chair 1')).getByText('Online')).toBeInTheDocument();
    expect(within(row('Chair 2')).getByText('Out of service')).toBeInTheDocument();
    expect(within(row('Chair 2')).queryByText('Online')).not.toBeInTheDocument();
    // The first cannot go up, the last cannot go down.
    expect(screen.getByRole('button', { name: 'Move Chair 1 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Hygiene Room down' })).toBeDisabled();
  });

  it('shows others the chairs without a way to change them', async () => {
    renderScreen(<ChairsPanel canEdit={false} />, { url: '/settings', staff: staffMember('receptionist') });
    expect(await screen.findByText('Chair 1')).toBeInTheDocument();
    expect(screen.getByText(/Only an administrator can change them/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add chair' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Chair 1' })).not.toBeInTheDocument();
  });

  it('adds a chair with an active dentist as its default, and says a taken name beside the name', async () => {
    api.onPost('/api/chairs').replyOnce(409, refusal('Another chair has this name'));
    api.onPost('/api/chairs').reply(201, chair(4, 'Chair 4', 4, { default_dentist_id: 8 }));
    const view = asAdmin();
    await screen.findByText('Chair 1');
    await view.user.click(screen.getByRole('button', { name: 'Add chair' }));
    const dialog = await findDialog('Add chair');
    await view.user.click(within(dialog).getByRole('button', { name: 'Add chair' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(api.sent('post')).toHaveLength(0);

    await view.user.type(within(dialog).getByLabelText('Name'), 'Chair 4');
    await view.user.click(within(dialog).getByLabelText('Default dentist'));
    // Only active dentists are offered.
    expect(screen.queryByTitle('Dr. Away')).not.toBeInTheDocument();
    await view.user.click(await screen.findByTitle('Dr. Michael Chen'));
    await view.user.click(within(dialog).getByRole('button', { name: 'Add chair' }));
    const nameItem = within(dialog).getByLabelText('Name').closest('.ant-form-item') as HTMLElement;
    expect(await within(nameItem).findByText('Another chair has this name')).toBeInTheDocument();

    await view.user.click(within(dialog).getByRole('button', { name: 'Add chair' }));
    expect(await screen.findByText('Chair 4 was added')).toBeInTheDocument();
    expect(api.sent('post')[1]?.body).toEqual({
      name: 'Chair 4',
      default_dentist_id: 8,
      in_service: true,
      bookable_online: true,
    });
  });

  it('takes a chair out of service as shown (If-Match)', async () => {
    api.onPut('/api/chairs/1').reply(200, { ...ONE, in_service: false, version: 4 });
    const view = asAdmin();
    await view.user.click(await screen.findByRole('button', { name: 'Edit Chair 1' }));
    const dialog = await findDialog('Edit chair');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Chair 1');
    await view.user.click(within(dialog).getByRole('switch', { name: 'In service' }));
    await view.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Chair 1 was saved')).toBeInTheDocument();
    expect(api.sent('put')[0]?.body).toEqual({
      name: 'Chair 1',
      default_dentist_id: 7,
      in_service: false,
      bookable_online: true,
    });
    expect(api.sent('put')[0]?.ifMatch).toBe('"3"');
  });

  it('moves a chair up by sending the whole new order', async () => {
    api.onPut('/api/chairs/order').reply(200, {
      data: [chair(1, 'Chair 1', 1), chair(3, 'Hygiene Room', 2), chair(2, 'Chair 2', 3)],
    });
    const view = asAdmin();
    await view.user.click(await screen.findByRole('button', { name: 'Move Hygiene Room up' }));
    await waitFor(() => expect(api.sent('put')).toHaveLength(1));
    expect(api.sent('put')[0]?.body).toEqual({ ids: [1, 3, 2] });
    await waitFor(() => expect(screen.getAllByRole('row')[2]?.textContent).toContain('Hygiene Room'));
  });

  it('retires a chair after asking, as shown (If-Match); a refusal is said in the banner', async () => {
    api
      .onDelete('/api/chairs/2')
      .replyOnce(412, { message: 'This record was changed by someone else', current: TWO });
    api.onDelete('/api/chairs/2').reply(200, { message: 'Chair retired' });
    const view = asAdmin();
    await view.user.click(await screen.findByRole('button', { name: 'Retire Chair 2' }));
    const question = await findDialog('Retire Chair 2?');
    await view.user.click(within(question).getByRole('button', { name: 'Retire' }));
    expect(await screen.findByText('This record was changed by someone else')).toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: 'Retire Chair 2' }));
    await view.user.click(
      within(await findDialog('Retire Chair 2?')).getByRole('button', { name: 'Retire' }),
    );
    expect(await screen.findByText('Chair 2 was retired')).toBeInTheDocument();
    expect(api.sent('delete').map((sent) => sent.ifMatch)).toEqual(['"1"', '"1"']);
  });
});
