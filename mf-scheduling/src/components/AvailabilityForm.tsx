import {
  AVAILABILITY_DAY_STATUSES,
  type AvailabilityDayStatus,
  availabilityWriteSchema,
  type WireAvailability,
  type WireDentist,
} from '@dental/shared';
import { todayDay } from '@dental/shared/kit';
import {
  Form,
  Input,
  ModalForm,
  type ModalFormOpenProps,
  Select,
  StatusField,
  schemaRules,
  useModalForm,
} from '@dental/shared/ui/forms';
import {
  availabilityKeys,
  createAvailability,
  getAvailabilityDay,
  updateAvailability,
} from '../api/availability';
import { SlotPicker, SUGGESTED_KEYS, slotChoiceRule, slotKey, slotOfKey } from './SlotPicker';

const rulesFor = schemaRules(availabilityWriteSchema.in);
/** The form's fields by the server's names; the slots are `time_slots` on the wire. */
const FIELDS = ['dentist_id', 'date', 'time_slots', 'status'];

interface AvailabilityFormValues {
  dentist_id: number;
  date: string;
  time_slots: string[];
  status: AvailabilityDayStatus;
}

export interface AvailabilityFormProps extends ModalFormOpenProps<WireAvailability> {
  /** The day to edit; none for 'Add Availability'. */
  day: WireAvailability | null;
  dentists: readonly WireDentist[];
  /** A dentist signed in adds days for their own record only. */
  ownDentistId: number | null;
  /** Where 'Add Availability' starts: the dentist and date the screen is filtered by. */
  initial?: { dentistId?: number; date?: string };
}

/** The dialog's title and Save, adding or editing. */
const WORDS = { edit: 'Edit Availability', add: 'Add Availability', addOk: 'Add Availability' };

/**
 * 'Add Availability' and 'Edit Availability' (docs/product.md, Screens; Validation rules): a dentist, a date and several slots at
 * once; on edit the Status select makes the day active or inactive. A slot kept keeps its state
 * (booked stays booked, a closed one stays closed).
 */
export function AvailabilityForm({
  open,
  day: opened,
  dentists,
  ownDentistId,
  initial,
  onClose,
  onSaved,
}: AvailabilityFormProps) {
  const [form] = Form.useForm<AvailabilityFormValues>();
  const today = todayDay();
  const frame = useModalForm({
    form,
    open,
    fields: FIELDS,
    follows: { resource: 'availability', record: opened, load: () => getAvailabilityDay(opened?.id ?? 0) },
    initialValues: (day): Partial<AvailabilityFormValues> =>
      day
        ? {
            dentist_id: day.dentist_id,
            date: day.date,
            time_slots: day.time_slots.map(slotKey),
            status: day.status,
          }
        : {
            dentist_id: ownDentistId ?? initial?.dentistId,
            date: initial?.date && initial.date >= today ? initial.date : undefined,
            time_slots: [...SUGGESTED_KEYS],
            status: 'active',
          },
    refillOn: [ownDentistId, initial, today],
    save: (values, { shown, version, base }) => {
      // A slot kept keeps its state as the version saved over holds it (theirs, once chosen).
      const savedOver = base() ?? shown;
      const kept = new Map((savedOver?.time_slots ?? []).map((slot) => [slotKey(slot), slot.available]));
      const body = {
        dentist_id: values.dentist_id,
        date: values.date,
        time_slots: values.time_slots.map((key) => ({ ...slotOfKey(key), available: kept.get(key) ?? true })),
        status: values.status,
      };
      return shown ? updateAvailability(shown.id, body, version()) : createAvailability(body);
    },
    invalidates: [availabilityKeys.all],
    onSaved,
  });
  /** The day as the form shows it: as opened, or as 'Load theirs' brought it. */
  const day = frame.shown;

  const choices = dentists
    .filter(
      (dentist) => ownDentistId === null || dentist.id === ownDentistId || dentist.id === day?.dentist_id,
    )
    .map((dentist) => ({
      value: dentist.id,
      label: dentist.status === 'active' ? dentist.name : `${dentist.name} (inactive)`,
    }));

  return (
    <ModalForm frame={frame} name="availability" words={WORDS} onCancel={onClose}>
      <Form.Item name="dentist_id" label="Dentist" rules={rulesFor('dentist_id')}>
        <Select
          placeholder="Choose a dentist"
          options={choices}
          disabled={ownDentistId !== null}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Form.Item name="date" label="Date" rules={rulesFor('date')}>
        <Input type="date" min={day ? undefined : today} />
      </Form.Item>
      <Form.Item
        name="time_slots"
        label="Time slots"
        required
        rules={[slotChoiceRule]}
        extra="Check every slot the dentist takes visits in; a slot kept keeps its state."
      >
        <SlotPicker known={day?.time_slots} />
      </Form.Item>
      {day && (
        <StatusField
          statuses={AVAILABILITY_DAY_STATUSES}
          rules={rulesFor('status')}
          extra="An inactive day offers no slot: nothing can be booked on it."
        />
      )}
    </ModalForm>
  );
}
