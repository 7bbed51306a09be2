import { RECALL_YES_NO, type RecallRow } from '@dental/shared';
import {
  formatDay,
  parseAsId,
  parseAsStringLiteral,
  todayDay,
  useListState,
  useQueryClient,
} from '@dental/shared/kit';
import { App } from '@dental/shared/ui';
import {
  FilterChoicesError,
  ListFilters,
  ListPage,
  useActionError,
  useRowAction,
} from '@dental/shared/ui/lists';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  recallKeys,
  sendRecallReminder,
  useDentistChoices,
  useRecallList,
  useRecallTypes,
} from '../api/recall';
import { RecallContactForm, RecallSnoozeForm } from '../components/RecallActionForms';
import { recallColumns } from '../components/recallColumns';

/** The periods the list covers, by the day a recall falls due; none in the URL: the next 30 days. */
export const RECALL_PERIODS = ['overdue', '90d', 'year'] as const;
type RecallPeriod = (typeof RECALL_PERIODS)[number] | '30d';

const PERIOD_LABELS: Record<RecallPeriod, string> = {
  overdue: 'Overdue',
  '30d': 'Due in 30 days',
  '90d': 'Due in 90 days',
  year: 'Due this year',
};
const DUE_FILTER = {
  name: 'due',
  label: 'Due',
  // Unfiltered, the list covers the next 30 days: that choice stands in time order, second.
  allLabel: PERIOD_LABELS['30d'],
  allAt: 1,
  choices: RECALL_PERIODS.map((value) => ({ value, label: PERIOD_LABELS[value] })),
  popupMatchSelectWidth: false,
  width: [150, 170],
} as const;

/** A yes/no filter of the list: 'Scheduled', 'Not scheduled', and 'Scheduled or not' for both. */
function yesNoFilter(label: 'Scheduled' | 'Contacted') {
  return {
    label,
    allLabel: `${label} or not`,
    choices: [
      { value: 'yes', label },
      { value: 'no', label: `Not ${label.toLowerCase()}` },
    ],
    popupMatchSelectWidth: false,
    width: [150, 190],
  } as const;
}

const FILTERS = {
  due: parseAsStringLiteral(RECALL_PERIODS),
  type: parseAsId,
  dentist: parseAsId,
  scheduled: parseAsStringLiteral(RECALL_YES_NO),
  contacted: parseAsStringLiteral(RECALL_YES_NO),
};
/** The server keeps the order (soonest due first): the list offers no other sort. */
const SORTS = ['due'] as const;

/** `day` moved by `days` (`YYYY-MM-DD`, calendar days). */
export function addDays(day: string, days: number): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** The server's `due_by` for a period, from today. */
export function dueByOf(period: RecallPeriod, today: string): string {
  switch (period) {
    case 'overdue':
      return addDays(today, -1);
    case '90d':
      return addDays(today, 90);
    case 'year':
      return `${today.slice(0, 4)}-12-31`;
    default:
      return addDays(today, 30);
  }
}

const CHANNEL_WORDS = { email: 'e-mail', sms: 'SMS' } as const;

/** 'Reminder queued by e-mail and SMS'. */
export function reminderQueuedMessage(queued: ReadonlyArray<'email' | 'sms'>): string {
  const channels = (['email', 'sms'] as const).filter((channel) => queued.includes(channel));
  if (channels.length === 0) return 'Reminder queued';
  return `Reminder queued by ${channels.map((channel) => CHANNEL_WORDS[channel]).join(' and ')}`;
}

/** Recall: the patients due back for their hygiene recall or checkup, soonest first, to call or remind. */
export default function RecallPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const list = useListState({ sorts: SORTS, filters: FILTERS });
  const { state } = list;
  const today = todayDay();
  const period: RecallPeriod = state.due ?? '30d';
  const [contacting, setContacting] = useState<RecallRow | null>(null);
  const [snoozing, setSnoozing] = useState<RecallRow | null>(null);

  const recall = useRecallList({
    page: state.page,
    limit: state.pageSize,
    search: state.search || undefined,
    due_by: dueByOf(period, today),
    type_id: state.type ?? undefined,
    dentist_id: state.dentist ?? undefined,
    scheduled: state.scheduled ?? undefined,
    contacted: state.contacted ?? undefined,
  });
  const types = useRecallTypes();
  const dentists = useDentistChoices();

  const refresh = () => void queryClient.invalidateQueries({ queryKey: recallKeys.all });
  // Refused as stale or gone: the list shows the recall as it is now.
  const actionError = useActionError(refresh);
  const reminder = useRowAction({
    run: sendRecallReminder,
    done: (answer) => reminderQueuedMessage(answer.queued),
    actionError,
    refresh,
  });

  const book = (row: RecallRow) => {
    const query = new URLSearchParams({
      new: '1',
      patient: String(row.patient_id),
      treatment: row.treatment,
      returnTo: `${location.pathname}${location.search}`,
    });
    navigate(`/appointments?${query.toString()}`);
  };

  const typeChoices = (types.data?.data ?? [])
    .filter((type) => type.active || type.id === state.type)
    .map((type) => ({ value: type.id, label: type.name }));

  const columns = recallColumns({
    today,
    openPatient: (row) => navigate(`/patients?patient=${row.patient_id}`),
    book,
    remind: (row) => reminder.mutate(row),
    reminding: reminder.isPending ? (reminder.variables ?? null) : null,
    contact: setContacting,
    snooze: setSnoozing,
  });

  return (
    <ListPage
      title="Recall"
      subtitle="Patients due back for their recall, soonest first."
      primaryAction={{
        label: 'New Appointment',
        onClick: () =>
          navigate(
            `/appointments?${new URLSearchParams({ new: '1', returnTo: `${location.pathname}${location.search}` }).toString()}`,
          ),
      }}
      read={recall}
      list={list}
      banners={<FilterChoicesError reads={[types, dentists]} />}
      actionError={actionError}
      search="Search by name"
      filters={
        <ListFilters
          list={list}
          filters={[
            DUE_FILTER,
            {
              name: 'type',
              label: 'Recall type',
              allLabel: 'All recall types',
              loading: types.isPending,
              choices: typeChoices,
              unlistedLabel: (type) => `Recall type ${type}`,
              popupMatchSelectWidth: false,
              width: [150, 200],
            },
            { name: 'dentist', dentists, width: [150, 220] },
            { name: 'scheduled', ...yesNoFilter('Scheduled') },
            { name: 'contacted', ...yesNoFilter('Contacted') },
          ]}
          clearable
        />
      }
      table={{
        columns,
        size: 'middle',
        empty: { noMatch: 'No recalls match these filters', none: 'No patients are due in the next 30 days' },
      }}
    >
      <RecallContactForm
        recall={contacting}
        onClose={() => setContacting(null)}
        onSaved={() => {
          message.success('Marked as contacted');
          setContacting(null);
          refresh();
        }}
      />
      <RecallSnoozeForm
        recall={snoozing}
        onClose={() => setSnoozing(null)}
        onSaved={(saved) => {
          message.success(`Snoozed to ${formatDay(saved.snoozed_until)}`);
          setSnoozing(null);
          refresh();
        }}
      />
    </ListPage>
  );
}
