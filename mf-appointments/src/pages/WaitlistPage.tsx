import { TREATMENTS, type WaitlistEntry } from '@dental/shared';
import { parseAsId, parseAsStringLiteral, useListState, useQueryClient } from '@dental/shared/kit';
import { App } from '@dental/shared/ui';
import {
  deleteRowAction,
  editRowAction,
  FilterChoicesError,
  ListFilters,
  ListPage,
  useActionError,
  useConfirmDelete,
  useRowAction,
} from '@dental/shared/ui/lists';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useDentistChoices } from '../api/dentists';
import { deleteWaitlistEntry, useWaitlist, waitlistKeys } from '../api/waitlist';
import { WaitlistForm } from '../components/WaitlistForm';
import { waitlistColumns } from '../components/waitlistColumns';

const FILTERS = { dentist: parseAsId, treatment: parseAsStringLiteral(TREATMENTS) };
const TREATMENT_FILTER = {
  name: 'treatment',
  label: 'Treatment',
  allLabel: 'All treatments',
  choices: TREATMENTS,
  popupMatchSelectWidth: false,
  width: [150, 200],
} as const;
/** The server keeps the order (oldest entry first): the list offers no other sort. */
const SORTS = ['created'] as const;

/** Waitlist: patients waiting for a time, with the earliest free times that suit each one now. */
export default function WaitlistPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const location = useLocation();
  const confirmDelete = useConfirmDelete();
  const list = useListState({ sorts: SORTS, filters: FILTERS });
  const { state } = list;
  // The form is open with this entry (null: adding), or closed (undefined).
  const [editing, setEditing] = useState<WaitlistEntry | null | undefined>(undefined);

  const waitlist = useWaitlist({
    page: state.page,
    limit: state.pageSize,
    search: state.search || undefined,
    dentist_id: state.dentist ?? undefined,
    treatment: state.treatment ?? undefined,
  });
  const dentists = useDentistChoices();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: waitlistKeys.all });
  const actionError = useActionError(refresh);
  const remove = useRowAction({
    run: (entry: WaitlistEntry) => deleteWaitlistEntry(entry.id, entry.version),
    done: (_answer, entry) => `${entry.patient_name} was taken off the waitlist`,
    actionError,
    refresh,
  });

  const columns = waitlistColumns({
    returnTo: `${location.pathname}${location.search}`,
    actionsOf: (entry) => [
      editRowAction(`waitlist entry of ${entry.patient_name}`, () => setEditing(entry)),
      deleteRowAction(`waitlist entry of ${entry.patient_name}`, () =>
        confirmDelete(
          {
            title: 'Take off the waitlist?',
            content: `${entry.patient_name} will no longer be offered freed times for ${entry.treatment}.`,
          },
          () => remove.mutateAsync(entry),
        ),
      ),
    ],
  });

  return (
    <ListPage
      title="Waitlist"
      subtitle="Patients waiting for a time, oldest first, with the earliest free times that suit them."
      primaryAction={{ label: 'Add to Waitlist', onClick: () => setEditing(null) }}
      read={waitlist}
      list={list}
      banners={<FilterChoicesError reads={[dentists]} />}
      actionError={actionError}
      search="Search by name"
      filters={
        <ListFilters
          list={list}
          filters={[{ name: 'dentist', dentists, width: [150, 220] }, TREATMENT_FILTER]}
          clearable
        />
      }
      table={{
        columns,
        size: 'middle',
        empty: { noMatch: 'No waitlist entries match these filters', none: 'No one is on the waitlist' },
      }}
    >
      <WaitlistForm
        open={editing !== undefined}
        entry={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(saved) => {
          message.success(
            editing
              ? `The waitlist entry of ${saved.patient_name} was saved`
              : `${saved.patient_name} is on the waitlist`,
          );
          setEditing(undefined);
        }}
      />
    </ListPage>
  );
}
