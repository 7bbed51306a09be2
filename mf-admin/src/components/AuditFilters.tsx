import { Button, Flex, Input, InputNumber, Select } from '@dental/shared/ui';
import { useEffect, useState } from 'react';
import { AUDIT_ACTIONS, useUserChoices } from '../api/audit';

/** The audit log's filters as the URL holds them (null: not filtered). */
export interface AuditFilterValues {
  user: number | null;
  patient: number | null;
  action: string | null;
  from: string | null;
  to: string | null;
}

/** `status_change` → `Status change`. */
export const actionLabel = (action: string) => {
  const words = action.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const ALL = 'all';

/** A patient id typed in: the URL follows once the user pauses, so each key press is not a read. */
function PatientIdFilter({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const [typed, setTyped] = useState<number | null>(value);
  useEffect(() => setTyped(value), [value]);
  useEffect(() => {
    if (typed === value) return;
    const timer = setTimeout(() => onChange(typed), 400);
    return () => clearTimeout(timer);
  }, [typed, value, onChange]);
  return (
    <InputNumber<number>
      aria-label="Patient id"
      placeholder="Patient id"
      min={1}
      precision={0}
      value={typed}
      onChange={(next) => setTyped(typeof next === 'number' && next > 0 ? next : null)}
      style={{ width: 130 }}
    />
  );
}

/** The filter bar of the Audit screen: who, which patient, which action, which days. */
export function AuditFilters({
  values,
  onChange,
  onReset,
  isFiltered,
}: {
  values: AuditFilterValues;
  onChange: (changes: Partial<AuditFilterValues>) => void;
  onReset: () => void;
  isFiltered: boolean;
}) {
  const users = useUserChoices();
  const userChoices = (users.data?.data ?? []).map((user) => ({ value: user.id, label: user.name }));
  return (
    <Flex wrap gap={8} align="center">
      <Select<number | typeof ALL>
        aria-label="User"
        value={values.user ?? ALL}
        loading={users.isPending}
        showSearch
        optionFilterProp="label"
        onChange={(chosen) => onChange({ user: chosen === ALL ? null : chosen })}
        options={[{ value: ALL, label: 'All users' }, ...userChoices]}
        style={{ width: 180 }}
      />
      <PatientIdFilter value={values.patient} onChange={(patient) => onChange({ patient })} />
      <Select<string>
        aria-label="Action"
        value={values.action ?? ALL}
        onChange={(chosen) => onChange({ action: chosen === ALL ? null : chosen })}
        options={[
          { value: ALL, label: 'All actions' },
          ...AUDIT_ACTIONS.map((action) => ({ value: action, label: actionLabel(action) })),
        ]}
        style={{ width: 170 }}
      />
      <Input
        type="date"
        aria-label="From day"
        prefix="From"
        value={values.from ?? ''}
        max={values.to ?? undefined}
        onChange={(event) => onChange({ from: event.target.value || null })}
        style={{ width: 180 }}
      />
      <Input
        type="date"
        aria-label="To day"
        prefix="To"
        value={values.to ?? ''}
        min={values.from ?? undefined}
        onChange={(event) => onChange({ to: event.target.value || null })}
        style={{ width: 180 }}
      />
      {isFiltered && <Button onClick={onReset}>Clear filters</Button>}
    </Flex>
  );
}
