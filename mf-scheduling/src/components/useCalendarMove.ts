import {
  type ApiError,
  type Appointment,
  appointmentQueries,
  availabilityQueries,
  dashboardQueries,
  freedParamOf,
  freeTimesQueries,
  leftFree,
  timeRange,
} from '@dental/shared';
import { formatDay, useMutation, useQueryClient } from '@dental/shared/kit';
import { App } from '@dental/shared/ui';
import { useState } from 'react';
import { type MoveTarget, moveAppointment } from '../api/calendar';
import type { TimeColumn } from './TimeGrid';

/**
 * Moving a visit on the calendar: by dragging it onto a day or a time, or through the Move form.
 * Nothing moves on screen before the server's answer; a move refused because the visit changed
 * meanwhile is never retried (the form offers the choice, a drag reads the grids again).
 * `onMoved` is told the visit as saved and the time it left free, if any, to show the day moved to.
 */
export function useCalendarMove({
  visitsByDay,
  onMoved,
}: {
  visitsByDay: ReadonlyMap<string, readonly Appointment[]>;
  onMoved: (saved: Appointment, freed: string | null) => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [moving, setMoving] = useState<Appointment | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const move = useMutation({
    mutationFn: ({ appointment, to }: { appointment: Appointment; to: MoveTarget; inForm?: boolean }) =>
      moveAppointment(appointment, to),
    onMutate: () => setActionError(null),
    onSuccess: (saved, { appointment }) => {
      message.success(
        `The appointment of ${saved.patient} is now on ${formatDay(saved.date)} at ${timeRange(saved.time, saved.end_time)} with ${saved.dentist_name}${saved.chair_name ? ` in ${saved.chair_name}` : ''}`,
      );
      setMoving(null);
      // The day's open hours are the shared free-times read: the visit's old and new times change them.
      for (const queryKey of [
        appointmentQueries.key,
        freeTimesQueries.key,
        dashboardQueries.key,
        availabilityQueries.key,
      ])
        void queryClient.invalidateQueries({ queryKey });
      onMoved(saved, leftFree(appointment, saved) ? freedParamOf(appointment) : null);
    },
    onError: (error: ApiError, { inForm }) => {
      // Changed at another desk meanwhile: the Move form says so and offers the choice.
      if (inForm && error.status === 412) return;
      setMoving(null);
      setActionError(error.message);
      // A drag onto a visit changed or deleted meanwhile: refused, never retried; the grids read it again.
      if (error.status === 412 || error.status === 404)
        void queryClient.invalidateQueries({ queryKey: appointmentQueries.key });
    },
  });

  /** A visit the grids show, by its id (a drag carries only the id). */
  const visitById = (id: number) => [...visitsByDay.values()].flat().find((visit) => visit.id === id);

  return {
    /** The visit the Move form is open for. */
    moving,
    openMove: setMoving,
    closeMove: () => setMoving(null),
    saving: move.isPending,
    /** The Move form's save: its 412 stays with the form. */
    moveInForm: (appointment: Appointment, to: MoveTarget) =>
      move.mutateAsync({ appointment, to, inForm: true }),
    actionError,
    clearActionError: () => setActionError(null),
    /** A visit dropped on a day of the month: the same time that day. */
    dropOnDay: (appointmentId: number, day: string) => {
      const appointment = visitById(appointmentId);
      if (!appointment || appointment.date === day || move.isPending) return;
      move.mutate({ appointment, to: { date: day, time: appointment.time } });
    },
    /** A visit dropped on a time of a day's or a dentist's column. */
    dropOnTime: (appointmentId: number, column: TimeColumn, time: string) => {
      const appointment = visitById(appointmentId);
      if (!appointment || move.isPending) return;
      const chair = column.chairId ?? undefined;
      // A chair's column moves the visit to that chair with its own dentist; a dentist's, to that dentist.
      const dentist =
        chair === undefined ? (column.dentistId ?? appointment.dentist_id) : appointment.dentist_id;
      if (
        appointment.date === column.date &&
        appointment.time === time &&
        appointment.dentist_id === dentist &&
        (chair === undefined || appointment.chair_id === chair)
      )
        return;
      move.mutate({ appointment, to: { date: column.date, time, dentistId: dentist, chairId: chair } });
    },
  };
}
