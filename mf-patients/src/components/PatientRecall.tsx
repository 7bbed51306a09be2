import type { ApiError, RecallRow } from '@dental/shared';
import { formatDateTime, formatDay, todayDay, useQueryClient } from '@dental/shared/kit';
import { Button, ErrorBanner, Flex, Tag, Typography } from '@dental/shared/ui';
import { useActionError, useRowAction } from '@dental/shared/ui/lists';
import { useState } from 'react';
import { recallKeys, updateRecall, usePatientRecall } from '../api/recall';
import { RecallDueDateForm, RecallTurnOffForm } from './RecallActionForms';

/** Where a patient's recall stands: off for them, a visit booked, past its day, or still to come. */
function statusOf(recall: RecallRow, today: string): { label: string; color?: string } {
  if (!recall.active) return { label: 'off' };
  if (recall.scheduled_on) return { label: `scheduled ${formatDay(recall.scheduled_on)}`, color: 'green' };
  // A snooze moves when it counts as due: snoozed to a later day, it is not overdue yet.
  if ((recall.snoozed_until ?? recall.due_date) < today) return { label: 'overdue', color: 'red' };
  return { label: 'due', color: 'blue' };
}

const ROW_STYLE = { padding: '8px 0', borderBottom: '1px solid rgba(5, 5, 5, 0.06)' };

/**
 * A patient's recall in their details, one line a type: when it is due and where it stands, the last
 * contact, and what the desk may change here (the due date by hand, the recall off for them with a
 * note, or on again), each under the version shown.
 */
export function PatientRecall({ patientId, patientName }: { patientId: number; patientName: string }) {
  const queryClient = useQueryClient();
  const recall = usePatientRecall(patientId);
  const today = todayDay();
  const [settingDue, setSettingDue] = useState<RecallRow | null>(null);
  const [turningOff, setTurningOff] = useState<RecallRow | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: recallKeys.all });
  // Refused as stale or gone: the recall is read again as it is now.
  const actionError = useActionError(refresh);
  const turnOn = useRowAction({
    run: (row: RecallRow) => updateRecall(row, { active: true }),
    actionError,
    refresh,
  });
  const saved = () => {
    setSettingDue(null);
    setTurningOff(null);
    actionError.clear();
    refresh();
  };

  return (
    <section aria-labelledby={`recall-of-${patientId}`}>
      <Typography.Title level={4} id={`recall-of-${patientId}`} style={{ margin: '24px 0 12px' }}>
        Recall
      </Typography.Title>
      <ErrorBanner
        message={recall.error ? (recall.error as ApiError).message : null}
        onRetry={() => void recall.refetch()}
      />
      <ErrorBanner message={actionError.message} onClose={actionError.clear} />
      {recall.data && recall.data.data.length === 0 && (
        <Typography.Text type="secondary">
          No recall yet: it starts with their first completed visit of a recall's treatment.
        </Typography.Text>
      )}
      <ul aria-label={`Recall of ${patientName}`} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {recall.data?.data.map((row) => {
          const status = statusOf(row, today);
          return (
            <li key={row.type_id} style={ROW_STYLE}>
              <Flex justify="space-between" align="start" gap={8} wrap>
                <span style={{ flex: '1 1 220px' }}>
                  <strong>{row.type_name}</strong>{' '}
                  <Tag color={status.color} style={{ marginInlineStart: 4 }}>
                    {status.label}
                  </Tag>
                  <br />
                  <Typography.Text type="secondary">
                    Due {formatDay(row.due_date)}
                    {row.due_set_by_hand && ' (set by hand)'}
                    {row.snoozed_until && `, snoozed to ${formatDay(row.snoozed_until)}`}
                  </Typography.Text>
                  <br />
                  <Typography.Text type="secondary">
                    {row.last_contact
                      ? `Last contact ${formatDateTime(row.last_contact.at)}: ${row.last_contact.kind}${row.last_contact.note ? `, ${row.last_contact.note}` : ''}`
                      : 'No contact yet'}
                  </Typography.Text>
                  {row.note && (
                    <>
                      <br />
                      <Typography.Text type="secondary">Note: {row.note}</Typography.Text>
                    </>
                  )}
                </span>
                <Flex wrap gap={4}>
                  {row.active ? (
                    <>
                      <Button
                        size="small"
                        aria-label={`Set due date: ${row.type_name}`}
                        onClick={() => setSettingDue(row)}
                      >
                        Set due date
                      </Button>
                      <Button
                        size="small"
                        aria-label={`Turn off: ${row.type_name}`}
                        onClick={() => setTurningOff(row)}
                      >
                        Turn off
                      </Button>
                    </>
                  ) : (
                    <Button
                      size="small"
                      aria-label={`Turn on: ${row.type_name}`}
                      loading={turnOn.isPending && turnOn.variables?.type_id === row.type_id}
                      onClick={() => turnOn.mutate(row)}
                    >
                      Turn on
                    </Button>
                  )}
                </Flex>
              </Flex>
            </li>
          );
        })}
      </ul>
      <RecallDueDateForm recall={settingDue} onClose={() => setSettingDue(null)} onSaved={saved} />
      <RecallTurnOffForm recall={turningOff} onClose={() => setTurningOff(null)} onSaved={saved} />
    </section>
  );
}
