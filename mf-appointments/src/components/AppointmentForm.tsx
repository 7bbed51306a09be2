import {
  APPOINTMENT_NOTES_MAX,
  type ApiError,
  type Appointment,
  appointmentWriteSchema,
  canBookOutsideHours,
  type Treatment,
  useAuthStore,
} from '@dental/shared';
import { todayDay, useQueryClient } from '@dental/shared/kit';
import { ErrorBanner } from '@dental/shared/ui';
import {
  Form,
  Input,
  ModalForm,
  type ModalFormOpenProps,
  schemaRules,
  useModalForm,
} from '@dental/shared/ui/forms';
import { useCallback, useEffect, useReducer } from 'react';
import {
  appointmentKeys,
  createAppointment,
  getAppointment,
  invalidateAround,
  updateAppointment,
} from '../api/appointments';
import { freeTimesKeys } from '../api/availability';
import { useChairs } from '../api/chairs';
import { useTreatmentMinutes } from '../api/settings';
import { waitlistKeys } from '../api/waitlist';
import {
  APPOINTMENT_FIELDS,
  type AppointmentFormValues,
  newValuesOf,
  requestOf,
  valuesOf,
} from './appointmentFormValues';
import { bookingReducer, FRESH_BOOKING, leavesChosenPatient, treatmentBringingLength } from './bookingState';
import { ChairField } from './ChairField';
import { PatientFields } from './PatientNameInput';
import { RepeatFields, repeatRuleOf } from './SeriesFields';
import { useSeriesScopeQuestion } from './SeriesScopeQuestion';
import { TimeFields } from './TimeFields';
import { useBookableDentists } from './useBookableDentists';
import { useFreeTimeChoice } from './useFreeTimeChoice';
import { usePatientChoice } from './usePatientChoice';
import { useSeriesBooking } from './useSeriesBooking';
import { VisitFields } from './VisitFields';

const rulesFor = schemaRules(appointmentWriteSchema.in);

export interface AppointmentFormProps extends ModalFormOpenProps<Appointment> {
  /** The appointment to edit; none for 'New Appointment'. */
  appointment: Appointment | null;
  /** A new appointment's patient, looked up by id (`/appointments?new=1&patient=7`). */
  patientId?: number | null;
  /** A new appointment's date (`&date=YYYY-MM-DD`). */
  date?: string | null;
  /** A new appointment's dentist, e.g. the one the list is filtered on. */
  dentistId?: number | null;
  /** A new appointment's start (`&time=HH:mm`), e.g. free time clicked in the calendar's Day view. */
  time?: string | null;
  /** A new appointment's treatment (`&treatment=`, e.g. a recall's); it brings its length. */
  treatment?: Treatment | null;
  /** A new appointment's chair (`&chair=`, e.g. free time clicked in the Day view by chair). */
  chairId?: number | null;
  /** The waitlist entry a new appointment is booked for (`&waitlist=`): booked, it leaves the list. */
  waitlistEntryId?: number | null;
}

/** The dialog's title and Save, adding or editing; a repeating booking is checked before it is booked. */
const wordsOf = (repeating: boolean, bookable: number | null) => ({
  edit: 'Edit Appointment',
  add: 'New Appointment',
  addOk:
    bookable !== null
      ? `Book ${bookable} ${bookable === 1 ? 'visit' : 'visits'}`
      : repeating
        ? 'Check dates'
        : 'Book Appointment',
});

/**
 * 'New Appointment' and 'Edit Appointment' (docs/product.md, Validation rules: Appointment form): every field required except
 * notes, checked with the rules the server applies; its refusals land beside their fields.
 */
export function AppointmentForm({
  open,
  appointment: opened,
  patientId = null,
  date: initialDate = null,
  dentistId: initialDentist = null,
  time: initialTime = null,
  treatment: initialTreatment = null,
  chairId: initialChair = null,
  waitlistEntryId = null,
  onClose,
  onSaved,
}: AppointmentFormProps) {
  const [form] = Form.useForm<AppointmentFormValues>();
  const [booking, dispatch] = useReducer(bookingReducer, FRESH_BOOKING);
  const queryClient = useQueryClient();
  const ownDentistId = useAuthStore((state) => state.user?.dentistId ?? null);
  const mayOverride = useAuthStore((state) => canBookOutsideHours(state.user?.role));
  const treatmentMinutes = useTreatmentMinutes();
  const today = todayDay();
  const series = useSeriesBooking();
  const seriesScope = useSeriesScopeQuestion();

  const frame = useModalForm({
    form,
    open,
    fields: APPOINTMENT_FIELDS,
    follows: { resource: 'appointment', record: opened, load: () => getAppointment(opened?.id ?? 0) },
    initialValues: (shown) =>
      shown
        ? valuesOf(shown)
        : newValuesOf(
            {
              date: initialDate,
              time: initialTime,
              dentistId: initialDentist ?? ownDentistId,
              treatment: initialTreatment,
              chairId: initialChair,
            },
            treatmentMinutes,
          ),
    refillOn: [initialDate, initialTime, initialDentist, ownDentistId, initialTreatment, initialChair],
    onFill: (shown) => {
      series.reset();
      dispatch({
        type: 'filled',
        patient: shown ? { id: shown.patient_id, name: shown.patient, phone: shown.phone } : null,
      });
    },
    save: async (values, { shown, version }) => {
      const body = requestOf(values);
      if (shown) {
        // A visit of a series asks which visits the edit changes; closing the question saves nothing.
        const scope = await seriesScope.ask(shown, 'Save changes to');
        return scope ? updateAppointment(shown.id, body, version(), scope) : null;
      }
      const repeat = repeatRuleOf(values);
      if (repeat) return series.save(body, repeat);
      return createAppointment(
        waitlistEntryId === null ? body : { ...body, waitlist_entry_id: waitlistEntryId },
      );
    },
    invalidates: [appointmentKeys.all, freeTimesKeys.all, waitlistKeys.all],
    onSaved: (saved) => {
      // Not saved yet: a series shown for review, or a scope question closed.
      if (!saved) return;
      invalidateAround(queryClient);
      onSaved(saved);
    },
    onSaveError: (error, banner) => {
      series.markRefused(error);
      if (error.status !== 409) return banner;
      // What was free a moment ago may not be now.
      void queryClient.invalidateQueries({ queryKey: freeTimesKeys.all });
      // A clash names the visit in the way: the banner says it whole, the field says which.
      return error.message;
    },
  });
  /** The visit as the form shows it: as opened, or as 'Load theirs' brought it; the list's reads leave it be. */
  const appointment = frame.shown;
  const editing = appointment !== null;

  const dentists = useBookableDentists(appointment);
  const chairs = useChairs(open);
  const patient = usePatientChoice({ form, open, editing, patientId, booking, dispatch });

  const timeChecked = useCallback(() => dispatch({ type: 'timeChecked' }), []);
  const freeTime = useFreeTimeChoice({
    form,
    open,
    appointment,
    dentists: dentists.choices,
    timeToCheck: booking.timeToCheck,
    onTimeChecked: timeChecked,
  });
  const repeatUnit = Form.useWatch('repeat_unit', form) as AppointmentFormValues['repeat_unit'];
  const repeatEnd = Form.useWatch('repeat_end', form) as AppointmentFormValues['repeat_end'];
  const repeating = !editing && repeatUnit !== undefined && repeatUnit !== 'none';

  // The clinic's lengths read after the form was filled (a treatment from the URL): a new visit's
  // treatment still brings its length, until a length is typed.
  useEffect(() => {
    if (!open || editing || booking.lengthTyped) return;
    const treatment = form.getFieldValue('treatment') as Treatment | undefined;
    if (treatment) form.setFieldValue('duration', treatmentMinutes[treatment]);
  }, [open, editing, booking.lengthTyped, treatmentMinutes, form]);
  const loadError =
    patient.readError ??
    (dentists.error as ApiError | null)?.message ??
    (chairs.error as ApiError | null)?.message ??
    null;

  return (
    <ModalForm
      frame={frame}
      name="appointment"
      words={wordsOf(repeating, series.review ? series.bookable : null)}
      onCancel={onClose}
      width={640}
      notice={<ErrorBanner message={loadError} />}
      onValuesChange={(changed: Partial<AppointmentFormValues>, all: AppointmentFormValues) => {
        // The visits of a checked series were checked for the booking as it was.
        if (Object.keys(changed).some((field) => field !== 'notes')) series.reset();
        // A treatment brings its length from Settings, until a length is typed.
        const bringsLength = treatmentBringingLength(booking, changed);
        if (bringsLength) form.setFieldValue('duration', treatmentMinutes[bringsLength]);
        dispatch({ type: 'changed', changed });
        if (!editing && leavesChosenPatient(booking.patient, changed, all))
          form.setFieldValue('patient_id', null);
      }}
    >
      <PatientFields editing={editing} isChosenPatient={patient.isChosen} onPick={patient.pick} />
      <VisitFields
        dentists={dentists.choices}
        dentistsLoading={dentists.loading}
        appointment={appointment}
        today={today}
      />
      <TimeFields choice={freeTime} mayOverride={mayOverride} />
      <ChairField
        chairs={chairs.data?.data ?? []}
        chairsLoading={chairs.isPending}
        offered={freeTime.offered}
        time={freeTime.time}
        current={
          appointment?.chair_id ? { id: appointment.chair_id, name: appointment.chair_name ?? '' } : null
        }
      />
      {/* A waitlisted patient is offered one freed time: no series from the waitlist. */}
      {!editing && waitlistEntryId === null && (
        <RepeatFields values={{ repeat_unit: repeatUnit, repeat_end: repeatEnd }} firstDay={freeTime.date} />
      )}
      {series.node}
      <Form.Item name="notes" label="Notes" rules={rulesFor('notes')}>
        <Input.TextArea rows={3} maxLength={APPOINTMENT_NOTES_MAX} showCount />
      </Form.Item>
      {seriesScope.dialog}
    </ModalForm>
  );
}
