import {
  type ApiError,
  DENTIST_SORTS,
  PERSON_STATUSES,
  type PersonStatus,
  SPECIALIZATIONS,
  type Specialization,
  type WireDentist,
} from '@dental/shared';
import {
  parseAsStringLiteral,
  tablePagination,
  useListState,
  useMutation,
  useQueryClient,
} from '@dental/shared/kit';
import {
  App,
  Button,
  Card,
  Col,
  Empty,
  ErrorBanner,
  Flex,
  ListSearch,
  PageHeading,
  Pagination,
  PlusOutlined,
  Row,
  Select,
  Spin,
  Typography,
  useRowArrivals,
} from '@dental/shared/ui';
import { useState } from 'react';
import { deleteDentist, dentistKeys, useDentists } from '../api/dentists';
import { DentistCard } from '../components/DentistCard';
import { DentistForm } from '../components/DentistForm';
import { SAMPLE_DENTISTS } from './sampleDentists';

const FILTERS = {
  status: parseAsStringLiteral(PERSON_STATUSES),
  specialty: parseAsStringLiteral(SPECIALIZATIONS),
};
export const LOAD_FAILURE = 'Failed to load dentists data. Showing sample data.';

/** Dentists (spec §2): the clinic's dentists as cards, searched, filtered and paged by the server. */
export default function DentistsPage() {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useListState({ sorts: DENTIST_SORTS, filters: FILTERS });
  const { state } = list;
  const [editing, setEditing] = useState<{ dentist: WireDentist | null } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const dentists = useDentists({
    page: state.page,
    limit: state.pageSize,
    search: state.search || undefined,
    status: state.status ?? undefined,
    specialty: state.specialty ?? undefined,
    sort: state.sort,
  });

  const remove = useMutation({
    // The dentist as the card showed them: changed or deleted at another desk meanwhile, it is refused.
    mutationFn: (dentist: WireDentist) => deleteDentist(dentist.id, dentist.version),
    onSuccess: (_answer, dentist) => {
      message.success(`${dentist.name} was deleted`);
      void queryClient.invalidateQueries({ queryKey: dentistKeys.all });
    },
    onError: (error: ApiError) => {
      setActionError(error.message);
      if (error.status === 412 || error.status === 404)
        void queryClient.invalidateQueries({ queryKey: dentistKeys.all });
    },
  });

  const confirmDelete = (dentist: WireDentist) =>
    modal.confirm({
      title: 'Delete dentist?',
      content: `Are you sure you want to delete ${dentist.name}? Their availability and calendar feed go with them; their past appointments stay in the records under their name. This cannot be undone.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(dentist).catch(() => undefined),
    });

  // A failed read shows the sample (spec §8), marked and without actions; a later success replaces it.
  const failed = dentists.isError && !dentists.data;
  const shown = failed ? SAMPLE_DENTISTS : (dentists.data?.data ?? []);
  const total = dentists.data?.total ?? 0;
  // Another desk's changes update the cards in place; a card they bring in is marked for a moment.
  const arrival = useRowArrivals(
    dentists.isPlaceholderData || failed ? undefined : dentists.data?.data,
    state,
    (dentist) => dentist.id,
  );
  const loadError = dentists.error ? (dentists.error as ApiError).message : null;

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div>
          <PageHeading>Dentists</PageHeading>
          <Typography.Text type="secondary">
            The clinic's dentists, their details and working days.
          </Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ dentist: null })}>
          Add New Dentist
        </Button>
      </Flex>

      <ErrorBanner
        message={dentists.isError ? (failed ? LOAD_FAILURE : loadError) : null}
        onRetry={() => void dentists.refetch()}
      />
      <ErrorBanner message={actionError} onClose={() => setActionError(null)} />

      <Card style={{ marginBottom: 16 }}>
        <Flex wrap gap={12}>
          <ListSearch
            label="Search dentists"
            placeholder="Search dentists..."
            value={state.search}
            onSearch={list.setSearch}
          />
          <Select
            aria-label="Status"
            value={state.status ?? 'all'}
            onChange={(value: string) =>
              list.setFilters({ status: value === 'all' ? null : (value as PersonStatus) })
            }
            options={[
              { value: 'all', label: 'All statuses' },
              ...PERSON_STATUSES.map((status) => ({ value: status, label: status })),
            ]}
            style={{ flex: '1 1 130px', maxWidth: 170 }}
          />
          <Select
            aria-label="Specialization"
            value={state.specialty ?? 'all'}
            onChange={(value: string) =>
              list.setFilters({ specialty: value === 'all' ? null : (value as Specialization) })
            }
            options={[
              { value: 'all', label: 'All specializations' },
              ...SPECIALIZATIONS.map((specialty) => ({ value: specialty, label: specialty })),
            ]}
            style={{ flex: '1 1 190px', maxWidth: 240 }}
          />
        </Flex>
      </Card>

      {failed && (
        <Typography.Paragraph type="secondary">
          Sample dentists, not your clinic's: they cannot be edited.
        </Typography.Paragraph>
      )}

      {dentists.isPending ? (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin aria-label="Loading dentists" />
        </Flex>
      ) : shown.length === 0 ? (
        <Card>
          <Empty description={list.isFiltered ? 'No dentists match your search' : 'No dentists yet'} />
        </Card>
      ) : (
        <Row gutter={[16, 16]} aria-busy={dentists.isFetching}>
          {shown.map((dentist) => (
            <Col key={dentist.id} xs={24} md={12} xl={8} className={arrival(dentist)}>
              <DentistCard
                dentist={dentist}
                sample={failed}
                onEdit={(chosen) => setEditing({ dentist: chosen })}
                onDelete={confirmDelete}
              />
            </Col>
          ))}
        </Row>
      )}

      {!failed && total > 0 && (
        <Flex justify="end" style={{ marginTop: 16 }}>
          <Pagination {...tablePagination(state, total, list.setPage)} />
        </Flex>
      )}

      <DentistForm
        open={editing !== null}
        dentist={editing?.dentist ?? null}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          message.success(editing?.dentist ? `${saved.name} was saved` : `${saved.name} was added`);
          setEditing(null);
        }}
      />
    </div>
  );
}
