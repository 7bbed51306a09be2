import { useDebouncedCallback } from '@dental/shared/kit';
import { Button, Flex } from '@dental/shared/ui';
import { Input, InputNumber } from '@dental/shared/ui/forms';
import { FilterSelect } from '@dental/shared/ui/lists';
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

/** Actions whose words alone would not read as staff say them. */
const SPOKEN_ACTIONS: Record<string, string> = {
  mfa_enabled: 'Two-step sign-in turned on',
  mfa_disabled: 'Two-step sign-in turned off',
  mfa_reset: 'Two-step sign-in reset',
  recall_contacted: 'Recall call',
  waitlist_offered: 'Waitlist time offered',
};

/** `status_change` → `Status change`. */
export const actionLabel = (action: string) => {
  const spoken = SPOKEN_ACTIONS[action];
  if (spoken) return spoken;
  const words = action.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A patient id typed in: the URL follows once the user pauses, so each key press is not a read. */
function PatientIdFilter({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const [typed, setTyped] = useState<number | null>(value);
  const follow = useDebouncedCallback(onChange, 400);
  // A filter changed elsewhere (a link, Clear) wins over an id still being typed.
  useEffect(() => {
    setTyped(value);
    follow.cancel();
  }, [value, follow]);
  const type = (next: number | null) => {
    setTyped(next);
    if (next === value) follow.cancel();
    else follow(next);
  };
  return (
    <InputNumber<number>
      aria-label="Patient id"
      placeholder="Patient id"
      min={1}
      precision={0}
      value={typed}
      onChange={(next) => type(typeof next === 'number' && next > 0 ? next : null)}
      style={{ width: 130 }}
    />
  );
}

/** The range of days, From and To: an empty end is open, and neither end may pass the other. */
function DayRangeFilter({
  from,
  to,
  onChange,
}: {
  from: string | null;
  to: string | null;
  onChange: (changes: Pick<Partial<AuditFilterValues>, 'from' | 'to'>) => void;
}) {
  const ends = [
    { key: 'from', label: 'From day', prefix: 'From', value: from, min: null, max: to },
    { key: 'to', label: 'To day', prefix: 'To', value: to, min: from, max: null },
  ] as const;
  return ends.map((end) => (
    <Input
      key={end.key}
      type="date"
      aria-label={end.label}
      prefix={end.prefix}
      value={end.value ?? ''}
      min={end.min ?? undefined}
      max={end.max ?? undefined}
      onChange={(event) => onChange({ [end.key]: event.target.value || null })}
      style={{ width: 180 }}
    />
  ));
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
      <FilterSelect
        label="User"
        value={values.user}
        allLabel="All users"
        choices={userChoices}
        onChange={(user) => onChange({ user })}
        loading={users.isPending}
        showSearch={{ optionFilterProp: 'label' }}
        style={{ width: 180 }}
      />
      <PatientIdFilter value={values.patient} onChange={(patient) => onChange({ patient })} />
      <FilterSelect
        label="Action"
        value={values.action}
        allLabel="All actions"
        choices={AUDIT_ACTIONS.map((action) => ({ value: action, label: actionLabel(action) }))}
        onChange={(action) => onChange({ action })}
        style={{ width: 170 }}
      />
      <DayRangeFilter from={values.from} to={values.to} onChange={onChange} />
      {isFiltered && <Button onClick={onReset}>Clear filters</Button>}
    </Flex>
  );
}
