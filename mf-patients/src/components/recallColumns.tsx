import type { RecallRow } from '@dental/shared';
import { formatDateTime, formatDay } from '@dental/shared/kit';
import {
  BellOutlined,
  CheckCircleOutlined,
  ClockCircleOutlined,
  ScheduleOutlined,
  Tag,
  Typography,
} from '@dental/shared/ui';
import { rowActionsColumn, type TableColumnsType } from '@dental/shared/ui/lists';
import type { RecallListRow } from '../api/recall';

/** A cell's text wraps within this width, so that the table fits a laptop's screen. */
const WRAPPED = (maxWidth: number) => ({ maxWidth, whiteSpace: 'normal' as const });

const contactDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const whom = (row: RecallRow) => `${row.patient_name}, ${row.type_name}`;

export interface RecallColumnActions {
  /** Today, in the clinic's calendar: a recall due before it is overdue. */
  today: string;
  openPatient: (row: RecallRow) => void;
  book: (row: RecallRow) => void;
  remind: (row: RecallRow) => void;
  /** The recall whose reminder is being sent, if any. */
  reminding: RecallRow | null;
  contact: (row: RecallRow) => void;
  snooze: (row: RecallRow) => void;
}

/**
 * The recall list's columns: who (and how to reach them), the recall, the last visit, when it is
 * due, whether a visit is booked, the last contact, and what the desk can do about it.
 */
export function recallColumns({
  today,
  openPatient,
  book,
  remind,
  reminding,
  contact,
  snooze,
}: RecallColumnActions): TableColumnsType<RecallListRow> {
  return [
    {
      title: 'Patient',
      key: 'patient',
      render: (_, row) => (
        <div>
          <Typography.Link
            href={`/patients?patient=${row.patient_id}`}
            onClick={(event) => {
              // A plain click opens the file in Patients; a modified click opens it in a new tab.
              if (event.metaKey || event.ctrlKey || event.shiftKey) return;
              event.preventDefault();
              openPatient(row);
            }}
          >
            {row.patient_name}
          </Typography.Link>
          <div style={WRAPPED(210)}>
            <Typography.Text type="secondary">
              {row.phone}
              {row.email && (
                <>
                  {' · '}
                  <span style={{ whiteSpace: 'nowrap' }}>{row.email}</span>
                </>
              )}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    { title: 'Recall', key: 'type', render: (_, row) => <div style={WRAPPED(70)}>{row.type_name}</div> },
    {
      title: 'Last visit',
      // On a phone the list keeps who, what, when due and the actions; the rest is on a wider screen.
      responsive: ['md'],
      key: 'last_visit',
      render: (_, row) =>
        row.last_visit ? (
          <div style={WRAPPED(120)}>
            <div>{formatDay(row.last_visit)}</div>
            {row.last_dentist && <Typography.Text type="secondary">with {row.last_dentist}</Typography.Text>}
          </div>
        ) : (
          <Typography.Text type="secondary">None on record</Typography.Text>
        ),
    },
    {
      title: 'Due',
      key: 'due',
      render: (_, row) => (
        <div style={WRAPPED(104)}>
          <div>{formatDay(row.due_date)}</div>
          {/* A snooze moves when it counts as due: snoozed to a later day, it is not overdue yet. */}
          {(row.snoozed_until ?? row.due_date) < today && <Tag color="red">overdue</Tag>}
          {row.snoozed_until && (
            <div>
              <Typography.Text type="secondary">snoozed to {formatDay(row.snoozed_until)}</Typography.Text>
            </div>
          )}
          {row.due_set_by_hand && (
            <div>
              <Typography.Text type="secondary">set by hand</Typography.Text>
            </div>
          )}
        </div>
      ),
    },
    {
      title: 'Scheduled',
      // On a phone the list keeps who, what, when due and the actions; the rest is on a wider screen.
      responsive: ['md'],
      key: 'scheduled',
      render: (_, row) => (row.scheduled_on ? formatDay(row.scheduled_on) : '—'),
    },
    {
      title: 'Last contact',
      // On a phone the list keeps who, what, when due and the actions; the rest is on a wider screen.
      responsive: ['md'],
      key: 'last_contact',
      render: (_, row) =>
        row.last_contact ? (
          <div style={WRAPPED(136)}>
            {/* The day is enough in the list; the moment is in its hint. */}
            <div title={formatDateTime(row.last_contact.at)}>
              {contactDay.format(new Date(row.last_contact.at))}
            </div>
            <Tag>{row.last_contact.kind}</Tag>
            {row.last_contact.note && (
              <Typography.Text type="secondary">{row.last_contact.note}</Typography.Text>
            )}
          </div>
        ) : (
          '—'
        ),
    },
    // On a phone the actions stay in view; the dates scroll beneath them.
    rowActionsColumn<RecallListRow>(
      (row) => [
        {
          label: `Book: ${whom(row)}`,
          title: 'Book',
          icon: <ScheduleOutlined />,
          onClick: () => book(row),
        },
        {
          label: `Send reminder: ${whom(row)}`,
          title: 'Send reminder',
          icon: <BellOutlined />,
          loading: reminding?.patient_id === row.patient_id && reminding.type_id === row.type_id,
          onClick: () => remind(row),
        },
        {
          label: `Mark contacted: ${whom(row)}`,
          title: 'Mark contacted',
          icon: <CheckCircleOutlined />,
          onClick: () => contact(row),
        },
        {
          label: `Snooze: ${whom(row)}`,
          title: 'Snooze',
          icon: <ClockCircleOutlined />,
          onClick: () => snooze(row),
        },
      ],
      { small: true, fixed: 'right' },
    ),
  ];
}
