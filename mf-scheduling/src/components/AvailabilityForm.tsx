import {
  type ApiError,
  AVAILABILITY_DAY_STATUSES,
  type AvailabilityDayStatus,
  availabilityWriteSchema,
  type WireAvailability,
  type WireDentist,
} from '@dental/shared';
import { todayDay, useMutation, useQueryClient } from '@dental/shared/kit';
import {
  ErrorBanner,
  Form,
  Input,
  Modal,
  Select,
  schemaRules,
  showServerErrors,
  useEditConflict,
} from '@dental/shared/ui';
import { useEffect, useState } from 'react';
import {
  createAvailability,
  getAvailabilityDay,
  refreshAvailability,
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

export interface AvailabilityFormProps {
  open: boolean;
  /** The day to edit; none for 'Add Availability'. */
  day: WireAvailability | null;
  dentists: readonly WireDentist[];
  /** A dentist signed in adds days for their own record only. */
  ownDentistId: number | null;
  /** Where 'Add Availability' starts: the dentist and date the screen is filtered by. */
  initial?: { dentistId?: number; date?: string };
  onClose: () => void;
  onSaved: (day: WireAvailability) => void;
}

/**
 * 'Add Availability' and 'Edit Availability' (spec §2, §5): a dentist, a date and several slots at
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
  const [formError, setFormError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const today = todayDay();
  // Another desk's change to this day while the form is open: an alert, never a silent overwrite.
  const conflict = useEditConflict({
    resource: 'availability',
    open,
    record: opened,
    load: () => getAvailabilityDay(opened?.id ?? 0),
    resave: () => void submit(),
  });
  /** The day as the form shows it: as opened, or as 'Load theirs' brought it. */
  const day = conflict.shown;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setFormError(null);
    form.setFieldsValue(
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
    );
  }, [open, day, ownDentistId, initial, form, today]);

  const save = useMutation({
    mutationFn: (values: AvailabilityFormValues) => {
      // A slot kept keeps its state as the version saved over holds it (theirs, once chosen).
      const base = conflict.base() ?? day;
      const kept = new Map((base?.time_slots ?? []).map((slot) => [slotKey(slot), slot.available]));
      const body = {
        dentist_id: values.dentist_id,
        date: values.date,
        time_slots: values.time_slots.map((key) => ({ ...slotOfKey(key), available: kept.get(key) ?? true })),
        status: values.status,
      };
      return day ? updateAvailability(day.id, body, conflict.version()) : createAvailability(body);
    },
    onSuccess: (saved) => {
      refreshAvailability(queryClient);
      onSaved(saved);
    },
    onError: (error: ApiError) => {
      if (!conflict.handleSaveError(error)) setFormError(showServerErrors(form, error, FIELDS));
    },
  });

  const submit = async () => {
    setFormError(null);
    if (conflict.saveDisabled) return;
    const values = await form.validateFields().catch(() => null);
    if (values) save.mutate(values);
  };

  const choices = dentists
    .filter(
      (dentist) => ownDentistId === null || dentist.id === ownDentistId || dentist.id === day?.dentist_id,
    )
    .map((dentist) => ({
      value: dentist.id,
      label: dentist.status === 'active' ? dentist.name : `${dentist.name} (inactive)`,
    }));

  return (
    <Modal
      open={open}
      title={day ? 'Edit Availability' : 'Add Availability'}
      okText={day ? 'Save Changes' : 'Add Availability'}
      onOk={() => void submit()}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: conflict.saveDisabled }}
      footer={conflict.footer}
      onCancel={onClose}
      destroyOnHidden
    >
      <ErrorBanner message={formError} onClose={() => setFormError(null)} />
      <Form form={form} layout="vertical" name="availability" requiredMark onFinish={() => void submit()}>
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
          <Form.Item
            name="status"
            label="Status"
            rules={rulesFor('status')}
            extra="An inactive day offers no slot: nothing can be booked on it."
          >
            <Select options={AVAILABILITY_DAY_STATUSES.map((status) => ({ value: status, label: status }))} />
          </Form.Item>
        )}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
