import {
  createFakeApi,
  type FakeApi,
  pageOf,
  refusal,
  renderScreen,
  staffMember,
} from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import AuditPage from './AuditPage';

const admin = staffMember('admin', { id: 1 });

function record(id: number, place: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    place,
    created_at: '2026-11-20T09:30:00Z',
    user_id: 1,
    user_name: 'Alex Morgan',
    action: 'update',
    entity: 'patient',
    entity_id: '12',
    details: { name: 'Jane Doe' },
    ...overrides,
  };
}
const OPENED = record(42, 41, {
  user_id: 2,
  user_name: 'Riley Chen',
  action: 'view',
  details: { opened: 'details' },
});
const CHANGED = record(40, 39);
const FAILED_LOGIN = record(39, 38, {
  user_id: null,
  user_name: null,
  action: 'login_failed',
  entity: 'auth',
  entity_id: null,
  details: { username: 'nobody' },
});

const user = (id: number, name: string) => ({ id, name, username: name.toLowerCase().split(' ')[0] });

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  api.onGet('/api/users').reply(200, pageOf([user(1, 'Alex Morgan'), user(2, 'Riley Chen')]));
});
afterEach(() => api.restore());

const rowOf = (text: string) => within(screen.getByText(text).closest('tr') as HTMLElement);

/** antd's select: open it by its name and pick a choice. */
async function choose(view: ReturnType<typeof renderScreen>, label: string, choice: string) {
  await view.user.click(screen.getByRole('combobox', { name: label }));
  const options = await screen.findAllByTitle(choice);
  await view.user.click(options.at(-1) as HTMLElement);
}

describe('AuditPage (admins)', () => {
  it('shows the records newest first: when, who, what, which record, details and place in the chain', async () => {
    api.onGet('/api/audit').reply(200, pageOf([OPENED, CHANGED, FAILED_LOGIN], 3));
    renderScreen(<AuditPage />, { url: '/audit', staff: admin });
    expect(screen.getByRole('heading', { name: 'Audit', level: 1 })).toBeInTheDocument();
    expect(screen.getByText("Who did and who looked at what in the clinic's records.")).toBeInTheDocument();
    expect(await screen.findByText('opened: details')).toBeInTheDocument();
    const opened = rowOf('opened: details');
    expect(opened.getByText('Riley Chen')).toBeInTheDocument();
    expect(opened.getByText('View')).toBeInTheDocument();
    expect(opened.getByText('patient #12')).toBeInTheDocument();
    expect(opened.getByText('41')).toBeInTheDocument();
    expect(rowOf('name: Jane Doe').getByText('Alex Morgan')).toBeInTheDocument();
    const failed = rowOf('Login failed');
    expect(failed.getByText('System')).toBeInTheDocument();
    expect(failed.getByText('auth')).toBeInTheDocument();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Riley Chen');
    expect(rows[2]).toHaveTextContent('Login failed');
    expect(api.lastParams('/api/audit')).toEqual({ page: 1, limit: 20 });
  });

  it('a filter goes into the URL and into the request', async () => {
    api.onGet('/api/audit').reply(200, pageOf([OPENED, CHANGED]));
    const view = renderScreen(<AuditPage />, { url: '/audit', staff: admin });
    await screen.findByText('opened: details');
    await choose(view, 'Action', 'View');
    await waitFor(() => expect(view.currentParams().get('action')).toBe('view'));
    await waitFor(() => expect(api.lastParams('/api/audit')).toEqual({ action: 'view', page: 1, limit: 20 }));
    await choose(view, 'User', 'Riley Chen');
    await waitFor(() => expect(view.currentParams().get('user')).toBe('2'));
    await waitFor(() =>
      expect(api.lastParams('/api/audit')).toEqual({ action: 'view', user_id: 2, page: 1, limit: 20 }),
    );
  });

  it('a patient id typed in goes into the URL once the typing pauses', async () => {
    api.onGet('/api/audit').reply(200, pageOf([OPENED]));
    const view = renderScreen(<AuditPage />, { url: '/audit', staff: admin });
    await screen.findByText('opened: details');
    await view.user.type(screen.getByRole('spinbutton', { name: 'Patient id' }), '12');
    await waitFor(() => expect(view.currentParams().get('patient')).toBe('12'));
    await waitFor(() => expect(api.lastParams('/api/audit')).toEqual({ patient_id: 12, page: 1, limit: 20 }));
    expect(api.sent('get', '/api/audit').some(({ params }) => params.patient_id === 1)).toBe(false);
  });

  it('reads the filters of a shared link, and Download CSV downloads exactly what they show', async () => {
    api.onGet('/api/audit').reply(200, pageOf([OPENED]));
    api.onGet('/api/audit/csv').reply(200, 'id,when\n42,2026-11-20\n');
    const createObjectURL = jest.fn(() => 'blob:audit');
    const revokeObjectURL = jest.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const view = renderScreen(<AuditPage />, {
      url: '/audit?patient=12&action=view&from=2026-11-01&to=2026-11-30&page=2',
      staff: admin,
    });
    await screen.findByText('opened: details');
    expect(api.lastParams('/api/audit')).toEqual({
      patient_id: 12,
      action: 'view',
      from: '2026-11-01',
      to: '2026-11-30',
      page: 2,
      limit: 20,
    });
    expect(screen.getByRole('spinbutton', { name: 'Patient id' })).toHaveValue('12');
    await view.user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(api.lastParams('/api/audit/csv')).toEqual({
      patient_id: 12,
      action: 'view',
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(createObjectURL).toHaveBeenCalledWith(expect.any(Blob));
    expect((click.mock.instances[0] as unknown as HTMLAnchorElement).download).toBe('audit.csv');
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:audit');
    click.mockRestore();
  });

  it('checks the chain: it holds', async () => {
    api.onGet('/api/audit').reply(200, pageOf([OPENED]));
    api.onGet('/api/audit/verify').reply(200, { records: 42, holds: true, first_unfit: null });
    const view = renderScreen(<AuditPage />, { url: '/audit', staff: admin });
    await screen.findByText('opened: details');
    await view.user.click(screen.getByRole('button', { name: 'Check the chain' }));
    expect(await screen.findByText('The audit chain holds: 42 records checked.')).toBeInTheDocument();
  });

  it('checks the chain: it breaks at the first record that was altered', async () => {
    api.onGet('/api/audit').reply(200, pageOf([OPENED]));
    api
      .onGet('/api/audit/verify')
      .reply(200, { records: 42, holds: false, first_unfit: { id: 17, place: 16 } });
    const view = renderScreen(<AuditPage />, { url: '/audit', staff: admin });
    await screen.findByText('opened: details');
    await view.user.click(screen.getByRole('button', { name: 'Check the chain' }));
    expect(
      await screen.findByText('The chain breaks at record #17 (place 16): it was altered.'),
    ).toBeInTheDocument();
  });

  it('a failed load shows the banner with Retry, and no claim that there are no records', async () => {
    api.onGet('/api/audit').replyOnce(500, refusal('Database unavailable'));
    api.onGet('/api/audit').reply(200, pageOf([OPENED]));
    const view = renderScreen(<AuditPage />, { url: '/audit', staff: admin });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    expect(screen.queryByText('No audit records yet')).not.toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('opened: details')).toBeInTheDocument();
  });
});
