import { queryFollows } from '@dental/shared/kit';
import { createFakeApi, type FakeApi, pageOf, renderScreen } from '@dental/shared/testing';
import { ARRIVED_ROW_CLASS } from '@dental/shared/ui/lists';
import { screen, waitFor } from '@testing-library/react';
import PatientsPage from './PatientsPage';

/** Another desk's change as the shell applies it: every read following patients is read again. */
const anotherDeskChangedPatients = (view: ReturnType<typeof renderScreen>) =>
  view.queryClient.invalidateQueries({
    predicate: (query) => queryFollows(query, 'patient'),
    refetchType: 'active',
  });

const patient = (id: number, name: string) => ({
  id,
  name,
  email: null,
  phone: `555-01${String(id).padStart(2, '0')}`,
  dateOfBirth: '1990-04-12',
  address: null,
  emergencyContact: null,
  medicalHistory: null,
  lastVisit: null,
  nextAppointment: null,
  status: 'active',
  version: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
});
afterEach(() => api.restore());

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('PatientsPage follows the other desks without jumping', () => {
  it('a row another desk adds comes in marked, on the same page, with the focus where it was', async () => {
    const page2 = [patient(11, 'Kai Lund'), patient(12, 'Lea Moss')];
    api.onGet('/api/patients').reply(200, pageOf(page2, 22, 2, 10));
    const view = renderScreen(<PatientsPage />, { url: '/patients?page=2&pageSize=10' });
    expect(await screen.findByText('Lea Moss')).toBeInTheDocument();
    const edit = screen.getByRole('button', { name: 'Edit Lea Moss' });
    edit.focus();

    // Another desk adds Kim Lee, who sorts onto this page; Lea's row keeps its place in the document.
    api
      .onGet('/api/patients')
      .reply(200, pageOf([patient(11, 'Kai Lund'), patient(13, 'Kim Lee'), page2[1]], 23, 2, 10));
    await anotherDeskChangedPatients(view);
    expect(await screen.findByText('Kim Lee')).toBeInTheDocument();
    expect(row('Kim Lee')).toHaveClass(ARRIVED_ROW_CLASS);
    expect(row('Lea Moss')).not.toHaveClass(ARRIVED_ROW_CLASS);
    expect(screen.getByRole('button', { name: 'Edit Lea Moss' })).toBe(edit);
    expect(edit).toHaveFocus();
    // The same page, read in the background: no loading veil over the rows.
    expect(api.lastParams('/api/patients')).toMatchObject({ page: 2 });
    expect(view.currentParams().get('page')).toBe('2');
    expect(document.querySelector('.ant-pagination-item-active')).toHaveTextContent('2');
    expect(document.querySelector('.ant-spin-spinning')).toBeNull();
    // The mark is brief.
    await waitFor(() => expect(row('Kim Lee')).not.toHaveClass(ARRIVED_ROW_CLASS), { timeout: 3_000 });
  });
});
