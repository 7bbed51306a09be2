import { type Appointment, type AppointmentStatus, canCompleteOn, type SeriesScope } from '@dental/shared';
import { formatDay, useMutation, useQueryClient } from '@dental/shared/kit';
import {
  App,
  CarryOutOutlined,
  CheckCircleOutlined,
  CloseCircleOutlined,
  DeleteOutlined,
  EditOutlined,
} from '@dental/shared/ui';
import { type RowAction, useActionError, useConfirmDelete } from '@dental/shared/ui/lists';
import { useState } from 'react';
import {
  appointmentKeys,
  deleteAppointment,
  invalidateAround,
  setAppointmentStatus,
  showSavedAppointment,
} from '../api/appointments';
import { useSeriesScopeQuestion } from './SeriesScopeQuestion';

const STATUS_DONE: Record<AppointmentStatus, string> = {
  confirmed: 'confirmed',
  pending: 'set to pending',
  cancelled: 'cancelled',
  completed: 'marked as completed',
};

interface StatusChange {
  appointment: Appointment;
  status: AppointmentStatus;
  /** A visit of a series: it alone, or with the later visits of its series. */
  scope?: SeriesScope;
}

/**
 * A row's actions on the Appointments list: Confirm, Cancel, Complete, Edit and Delete, each off
 * while it makes no sense or while that row's change is on its way. A refusal is said in the action
 * banner (`actionError`); a visit changed or gone meanwhile reads the list again, nothing is retried.
 */
export function useAppointmentActions({
  today,
  onEdit,
  onFreed,
}: {
  today: string;
  onEdit: (visit: Appointment) => void;
  /** A visit was cancelled or deleted: its time is free to fill (from the waitlist). */
  onFreed?: (visit: Appointment) => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const confirmDelete = useConfirmDelete();
  const seriesScope = useSeriesScopeQuestion();
  const [busyIds, setBusyIds] = useState<ReadonlySet<number>>(() => new Set());
  const actionError = useActionError(
    () => void queryClient.invalidateQueries({ queryKey: appointmentKeys.all }),
  );

  const markBusy = (id: number, busy: boolean) =>
    setBusyIds((current) => {
      const next = new Set(current);
      if (busy) next.add(id);
      else next.delete(id);
      return next;
    });

  const changeStatus = useMutation({
    // The visit as the row showed it: changed or deleted at another desk meanwhile, it is refused.
    mutationFn: ({ appointment, status, scope }: StatusChange) =>
      setAppointmentStatus(appointment.id, status, appointment.version, scope),
    onMutate: ({ appointment }) => {
      actionError.clear();
      markBusy(appointment.id, true);
    },
    onSettled: (_answer, _error, { appointment }) => markBusy(appointment.id, false),
    onSuccess: (saved, { scope, appointment }) => {
      if (saved.status === 'cancelled') onFreed?.(appointment);
      showSavedAppointment(queryClient, saved);
      if (scope === 'following') {
        // The later visits changed too: the lists read them again.
        void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
        message.success(`This and the following visits of ${saved.patient} are ${STATUS_DONE[saved.status]}`);
      } else message.success(`The appointment of ${saved.patient} is ${STATUS_DONE[saved.status]}`);
    },
    onError: actionError.refused,
  });

  const remove = useMutation({
    mutationFn: (appointment: Appointment) => deleteAppointment(appointment.id, appointment.version),
    onMutate: (appointment) => {
      actionError.clear();
      markBusy(appointment.id, true);
    },
    onSettled: (_answer, _error, appointment) => markBusy(appointment.id, false),
    onSuccess: (_answer, appointment) => {
      if (appointment.status !== 'cancelled') onFreed?.(appointment);
      message.success(`The appointment of ${appointment.patient} was deleted`);
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
      invalidateAround(queryClient);
    },
    onError: actionError.refused,
  });

  const actionsOf = (appointment: Appointment): RowAction[] => {
    const { status } = appointment;
    const action = (
      label: string,
      icon: RowAction['icon'],
      onClick: () => void,
      options: { disabled?: boolean; danger?: boolean } = {},
    ): RowAction => ({
      label: `${label} appointment of ${appointment.patient}`,
      tooltip: label,
      icon,
      onClick,
      danger: options.danger,
      disabled: options.disabled || busyIds.has(appointment.id),
    });
    const setStatus = (to: AppointmentStatus) => () => changeStatus.mutate({ appointment, status: to });
    return [
      action('Confirm', <CheckCircleOutlined />, setStatus('confirmed'), {
        disabled: status === 'confirmed',
      }),
      action(
        'Cancel',
        <CloseCircleOutlined />,
        // A visit of a series asks first: this visit, or this and the following.
        () =>
          void seriesScope.ask(appointment, 'Cancel').then((scope) => {
            if (scope) changeStatus.mutate({ appointment, status: 'cancelled', scope });
          }),
        { disabled: status === 'cancelled' },
      ),
      action('Complete', <CarryOutOutlined />, setStatus('completed'), {
        // A visit is completed once it has taken place (the server says the same).
        disabled: status === 'completed' || status === 'cancelled' || !canCompleteOn(appointment.date, today),
      }),
      action('Edit', <EditOutlined />, () => onEdit(appointment)),
      action(
        'Delete',
        <DeleteOutlined />,
        () =>
          confirmDelete(
            {
              title: 'Delete appointment?',
              content: `Are you sure you want to delete the appointment of ${appointment.patient} on ${formatDay(appointment.date)} at ${appointment.time}? This cannot be undone.`,
            },
            () => remove.mutateAsync(appointment),
          ),
        { danger: true },
      ),
    ];
  };

  return { actionError, actionsOf, dialog: seriesScope.dialog };
}
