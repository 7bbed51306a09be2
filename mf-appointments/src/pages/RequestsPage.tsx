import {
  type ApiError,
  BOOKING_REQUEST_KIND_LABELS,
  BOOKING_REQUEST_STATES,
  type BookingRequest,
  endTimeOf,
  type FreedVisit,
  timeRange,
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
  Button,
  Card,
  CheckCircleOutlined,
  Flex,
  PhoneOutlined,
  Tag,
  TeamOutlined,
  Typography,
  UserAddOutlined,
  UserOutlined,
} from '@dental/shared/ui';
import { Modal, Radio, Segmented } from '@dental/shared/ui/forms';
import { CardTitle, FillFreedTime, ListPage, useActionError } from '@dental/shared/ui/lists';
import { type ReactNode, useState } from 'react';
import {
  bookingRequestKeys,
  keepAsNewPatient,
  linkBookingRequest,
  markCalledBack,
  markFreedTimeDone,
  useBookingRequests,
} from '../api/bookingRequests';

const FILTERS = { state: parseAsStringLiteral(BOOKING_REQUEST_STATES).withDefault('open') };
/** The server keeps the order (newest first). */
const SORTS = ['received'] as const;
const CLOSED_HOW: Record<NonNullable<BookingRequest['closed_how']>, string> = {
  linked: 'Linked to a patient',
  new_patient: 'Kept as a new patient',
  called_back: 'Called back',
  done: 'Done',
};
const KIND_TAGS: Record<BookingRequest['kind'], { color: string; label: string }> = {
  unmatched: { color: 'orange', label: 'Not matched' },
  call_back: { color: 'blue', label: 'Call' },
  freed: { color: 'green', label: 'Free time' },
};

/** How to reach who asked, as they gave it on the booking page (their name is the card's title). */
function Contact({ request }: { request: BookingRequest }) {
  const { contact } = request;
  return (
    <Typography.Text type="secondary">
      {[contact.phone, contact.email, contact.date_of_birth && `born ${contact.date_of_birth}`]
        .filter(Boolean)
        .join(' · ')}
      {contact.wanted && (
        <>
          <br />
          Wanted to {contact.wanted}
        </>
      )}
    </Typography.Text>
  );
}

/**
 * Requests (docs/product.md, Online booking): what reaches the desk from the booking page. An
 * unmatched booking is linked to one of the records that share its e-mail or phone, or kept as a new
 * patient; a patient who asked to be called is marked called back; a time a patient freed by
 * cancelling online is offered to the waitlist (Fill this time) and marked done.
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
  // The time freed online being offered to the waitlist.
  const [filling, setFilling] = useState<FreedVisit | null>(null);

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

  /** The desk's actions on an open request, each named for screen readers with who asked. */
  const actionsOf = (request: BookingRequest): ReactNode[] => {
    if (request.state !== 'open') return [];
    const name = request.contact.name;
    if (request.kind === 'freed') {
      const freed = request.freed;
      return [
        <Button
          key="fill"
          type="text"
          icon={<TeamOutlined />}
          aria-label={`Fill the time ${name} freed`}
          disabled={!freed}
          onClick={() => freed && setFilling({ ...freed, dentist_name: freed.dentist_name ?? undefined })}
        >
          Fill this time
        </Button>,
        <Button
          key="done"
          type="text"
          icon={<CheckCircleOutlined />}
          aria-label={`Done with the time ${name} freed`}
          onClick={() => act.mutate(() => markFreedTimeDone(request.id))}
        >
          Done
        </Button>,
      ];
    }
    if (request.kind === 'call_back') {
      return [
        <Button
          key="called"
          type="text"
          icon={<PhoneOutlined />}
          aria-label={`${name} was called back`}
          onClick={() => act.mutate(() => markCalledBack(request.id))}
        >
          Called back
        </Button>,
      ];
    }
    return [
      <Button
        key="link"
        type="text"
        icon={<UserOutlined />}
        aria-label={`Link the visit of ${name} to a patient`}
        disabled={request.candidates.length === 0}
        onClick={() => {
          setChosen(request.candidates[0]?.id ?? null);
          setLinking(request);
        }}
      >
        Link
      </Button>,
      <Button
        key="new"
        type="text"
        icon={<UserAddOutlined />}
        aria-label={`Keep ${name} as a new patient`}
        onClick={() => act.mutate(() => keepAsNewPatient(request.id))}
      >
        New patient
      </Button>,
    ];
  };

  const render = (request: BookingRequest) => (
    <Card
      size="small"
      title={
        <CardTitle
          name={request.contact.name}
          detail={BOOKING_REQUEST_KIND_LABELS[request.kind]}
          wrapDetail
        />
      }
      extra={<Tag color={KIND_TAGS[request.kind].color}>{KIND_TAGS[request.kind].label}</Tag>}
      actions={actionsOf(request)}
    >
      <Flex vertical gap={6}>
        <Contact request={request} />
        {request.freed && (
          <Typography.Text strong>
            Free: {formatDay(request.freed.date, true)},{' '}
            {timeRange(request.freed.time, endTimeOf(request.freed.time, request.freed.duration))}
            {request.freed.dentist_name ? ` with ${request.freed.dentist_name}` : ''}
          </Typography.Text>
        )}
        {request.appointment ? (
          <Typography.Text>
            {formatDay(request.appointment.date)}, {request.appointment.time}: {request.appointment.treatment}{' '}
            with {request.appointment.dentist_name} ({request.appointment.status})
          </Typography.Text>
        ) : null}
        <Typography.Text type="secondary">
          Received {formatDay(request.created_at.slice(0, 10))}
          {request.closed_how ? ` · ${CLOSED_HOW[request.closed_how]}` : ''}
        </Typography.Text>
      </Flex>
    </Card>
  );

  return (
    <ListPage
      title="Requests"
      subtitle="What patients asked for on the booking page: visits whose patient was not matched, calls, and times freed online."
      read={requests}
      list={list}
      actionError={actionError}
      banners={<FillFreedTime freed={filling} onClose={() => setFilling(null)} returnTo="/requests" />}
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
      cards={{
        loadingLabel: 'Loading requests',
        render,
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
