import { DENTIST_SORTS, PERSON_STATUSES, SPECIALIZATIONS, type WireDentist } from '@dental/shared';
import { parseAsStringLiteral, useListState, useQueryClient } from '@dental/shared/kit';
import { useRecordEditor } from '@dental/shared/ui/forms';
import { ListFilters, ListPage, listQueryOf, useActionError, useRowDelete } from '@dental/shared/ui/lists';
import { deleteDentist, dentistKeys, useDentists } from '../api/dentists';
import { DentistCard } from '../components/DentistCard';
import { DentistForm } from '../components/DentistForm';
import { SAMPLE_DENTISTS } from './sampleDentists';

const FILTERS = {
  status: parseAsStringLiteral(PERSON_STATUSES),
  specialty: parseAsStringLiteral(SPECIALIZATIONS),
};
/** The filter bar's selects, in order. */
const FILTER_BAR = [
  { name: 'status', label: 'Status', allLabel: 'All statuses', choices: PERSON_STATUSES, width: [130, 170] },
  {
    name: 'specialty',
    label: 'Specialization',
    allLabel: 'All specializations',
    choices: SPECIALIZATIONS,
    width: [190, 240],
  },
] as const;
export const LOAD_FAILURE = 'Failed to load dentists data. Showing sample data.';

/** Dentists (docs/product.md, Screens): the clinic's dentists as cards, searched, filtered and paged by the server. */
export default function DentistsPage() {
  const queryClient = useQueryClient();
  const list = useListState({ sorts: DENTIST_SORTS, filters: FILTERS });
  const { state } = list;
  const editor = useRecordEditor<WireDentist>();

  const dentists = useDentists({
    ...listQueryOf(state),
    status: state.status ?? undefined,
    specialty: state.specialty ?? undefined,
  });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: dentistKeys.all });
  const actionError = useActionError(refresh);
  const askDelete = useRowDelete<WireDentist>({
    remove: deleteDentist,
    question: (dentist) => ({
      title: 'Delete dentist?',
      content: `Are you sure you want to delete ${dentist.name}? Their availability and calendar feed go with them; their past appointments stay in the records under their name. This cannot be undone.`,
    }),
    refused: actionError.refused,
    refresh,
  });

  return (
    <ListPage
      title="Dentists"
      subtitle="The clinic's dentists, their details and working days."
      primaryAction={{ label: 'Add New Dentist', onClick: () => editor.add() }}
      read={dentists}
      list={list}
      actionError={actionError}
      search="Search dentists"
      filters={<ListFilters list={list} filters={FILTER_BAR} />}
      cards={{
        loadingLabel: 'Loading dentists',
        empty: { noMatch: 'No dentists match your search', none: 'No dentists yet' },
        // A failed read shows the sample (docs/product.md, Error messages), marked and without actions; a later success replaces it.
        sample: {
          rows: SAMPLE_DENTISTS,
          banner: LOAD_FAILURE,
          note: "Sample dentists, not your clinic's: they cannot be edited.",
        },
        render: (dentist, sample) => (
          <DentistCard
            dentist={dentist}
            sample={sample}
            onEdit={(chosen) => editor.edit(chosen)}
            onDelete={askDelete}
          />
        ),
      }}
    >
      <DentistForm open={editor.open} dentist={editor.record} onClose={editor.close} onSaved={editor.saved} />
    </ListPage>
  );
}
