import {
  type ApiError,
  BOOKING_REQUEST_KIND_LABELS,
  BOOKING_REQUEST_STATES,
  type BookingRequest,
} from '@dental/shared';
import {
  formatDay,
  parseAsStringLiteral,
  useListState,
  useMutation,
  useQueryClient,
} from '@dental/shared/kit';
import {
  App,
  ListPage,
  Modal,
  PhoneOutlined,
  Radio,
  rowActionsColumn,
  Segmented,
  type TableColumnsType,
  Tag,
  Typography,
  UserAddOutlined,
  UserOutlined,
  useActionError,
} from '@dental/shared/ui';
import { useState } from 'react';
import {
  bookingRequestKeys,
  keepAsNewPatient,
  linkBookingRequest,
  markCalledBack,
  useBookingRequests,
} from '../api/bookingRequests';

const FILTERS = { state: parseAsStringLiteral(BOOKING_REQUEST_STATES).withDefault('open') };
/** The server keeps the order (newest first). */
const SORTS = ['received'] as const;
const CLOSED_HOW: Record<NonNullable<BookingRequest['closed_how']>, string> = {
  linked: 'Linked to a patient',
  new_patient: 'Kept as a new patient',
  called_back: 'Called back',
};

/** Who asked, as they gave it on the booking page. */
function Contact({ request }: { request: BookingRequest }) {
  const { contact } = request;
  return (
    <div>
      <Typography.Text strong>{contact.name}</Typography.Text>
      <br />
      <Typography.Text type="secondary">
        {[contact.phone, contact.email, contact.date_of_birth && `born ${contact.date_of_birth}`]
          .filter(Boolean)
          .join(' · ')}
      </Typography.Text>
      {contact.wanted && (
        <>
          <br />
          <Typography.Text type="secondary">Wanted to {contact.wanted}</Typography.Text>
        </>
      )}
    </div>
  );
}

/**
 * Requests (docs/product.md, Online booking): what reaches the desk from the booking page. An
 * unmatched booking is linked to one of the records that share its e-mail or phone, or kept as a new
 * patient; a patient who asked to be called is marked called back.
 */
export default function RequestsPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useListState({ sorts: SORTS, filters: FILTERS });
  const { state } = list;
  const requests = useBookingRequests({ state: state.state, page: state.page, limit: state.pageSize });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: bookingRequestKeys.all });
  const actionError = useActionError(refresh);
  // The unmatched request being linked, and the record chosen for it.
  const [linking, setLinking] = useState<BookingRequest | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);

  const act = useMutation({
    mutationFn: (run: () => Promise<BookingRequest>) => run(),
    onSuccess: (closed) => {
      actionError.clear();
      setLinking(null);
      message.success(
        `${closed.contact.name}: ${CLOSED_HOW[closed.closed_how ?? 'called_back'].toLowerCase()}`,
      );
      refresh();
    },
    onError: (error: ApiError) => {
      setLinking(null);
      actionError.refused(error);
    },
  });

  const columns: TableColumnsType<BookingRequest> = [
    {
      title: 'Received',
      key: 'received',
      render: (_, request) => formatDay(request.created_at.slice(0, 10)),
    },
    {
      title: 'Request',
      key: 'kind',
      render: (_, request) => (
        <Tag color={request.kind === 'unmatched' ? 'orange' : 'blue'}>
          {BOOKING_REQUEST_KIND_LABELS[request.kind]}
        </Tag>
      ),
    },
    { title: 'From', key: 'contact', render: (_, request) => <Contact request={request} /> },
    {
      title: 'Visit',
      key: 'visit',
      render: (_, { appointment }) =>
        appointment ? (
          <div>
            {formatDay(appointment.date)}, {appointment.time}
            <br />
            <Typography.Text type="secondary">
              {appointment.treatment} with {appointment.dentist_name} ({appointment.status})
            </Typography.Text>
          </div>
        ) : (
          <Typography.Text type="secondary">None</Typography.Text>
        ),
    },
    ...(state.state === 'closed'
      ? [
          {
            title: 'Closed',
            key: 'closed',
            render: (_: unknown, request: BookingRequest) =>
              request.closed_how ? CLOSED_HOW[request.closed_how] : '',
          },
        ]
      : [
          rowActionsColumn<BookingRequest>(
            (request) =>
              request.kind === 'unmatched'
                ? [
                    {
                      label: `Link the visit of ${request.contact.name} to a patient`,
                      title: 'Link to a patient',
                      icon: <UserOutlined />,
                      disabled: request.candidates.length === 0,
                      onClick: () => {
                        setChosen(request.candidates[0]?.id ?? null);
                        setLinking(request);
                      },
                    },
                    {
                      label: `Keep ${request.contact.name} as a new patient`,
                      title: 'New patient',
                      icon: <UserAddOutlined />,
                      onClick: () => act.mutate(() => keepAsNewPatient(request.id)),
                    },
                  ]
                : [
                    {
                      label: `${request.contact.name} was called back`,
                      title: 'Called back',
                      icon: <PhoneOutlined />,
                      onClick: () => act.mutate(() => markCalledBack(request.id)),
                    },
                  ],
            { small: true },
          ),
        ]),
  ];

  return (
    <ListPage
      title="Requests"
      subtitle="What patients asked for on the booking page: visits whose patient was not matched, and calls."
      read={requests}
      list={list}
      actionError={actionError}
      isFiltered={false}
      filters={
        <Segmented
          aria-label="Requests to show"
          value={state.state}
          options={[
            { value: 'open', label: 'Open' },
            { value: 'closed', label: 'Closed' },
          ]}
          onChange={(value) => list.setFilters({ state: value === 'closed' ? 'closed' : null })}
        />
      }
      table={{
        columns,
        size: 'middle',
        empty: {
          noMatch: 'No requests',
          none:
            state.state === 'open'
              ? 'No open requests: nothing waits for the desk'
              : 'No closed requests yet',
        },
      }}
    >
      <Modal
        open={linking !== null}
        title={linking ? `Link the visit of ${linking.contact.name}` : ''}
        okText="Link"
        okButtonProps={{ disabled: chosen === null, loading: act.isPending }}
        onCancel={() => setLinking(null)}
        onOk={() => {
          if (linking && chosen !== null) act.mutate(() => linkBookingRequest(linking.id, chosen));
        }}
      >
        <Typography.Paragraph>
          The visit moves to the patient you choose; the record made from the request is removed.
        </Typography.Paragraph>
        <Radio.Group
          aria-label="Patient"
          value={chosen}
          onChange={(event) => setChosen(event.target.value as number)}
          options={(linking?.candidates ?? []).map((candidate) => ({
            value: candidate.id,
            label: `${candidate.name} · ${candidate.phone}${candidate.date_of_birth ? ` · born ${candidate.date_of_birth}` : ''}`,
          }))}
          style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
        />
      </Modal>
    </ListPage>
  );
}
