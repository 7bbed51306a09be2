import {
  IDLE_TIMEOUT_MAX,
  IDLE_TIMEOUT_MIN,
  MFA_POLICIES,
  MFA_POLICY_LABELS,
  NOTIFICATION_FLAGS,
  type NotificationFlag,
  practiceSettingsUpdateSchema,
  RECALL_REMINDER_MAX_DAYS,
  RECALL_REMINDER_MIN_DAYS,
  REMINDER_LEAD_MAX_HOURS,
  REMINDER_LEAD_MIN_HOURS,
} from '@dental/shared';
import { Card, Flex } from '@dental/shared/ui';
import { Form, Input, InputNumber, Select, Switch, schemaRules } from '@dental/shared/ui/forms';
import { useMemo } from 'react';
import { ChangePasswordForm } from './ChangePasswordForm';
import { OutboxTable } from './OutboxTable';
import { SessionsCard } from './SessionsCard';
import { TwoStepSignInCard } from './TwoStepSignInCard';
import { VisitLengthsFields } from './VisitLengthsFields';
import { WorkingHoursFields } from './WorkingHoursFields';

/**
 * The fields of the Settings page's General, Notifications and Security tabs. They sit inside the
 * page's one form (SettingsPage), which reads, saves and checks them together; `readOnly` is for
 * everyone but an admin, who alone changes the practice settings.
 */

const rulesFor = schemaRules(practiceSettingsUpdateSchema);

/** A setting's label, and what it does said under it. */
interface SettingText {
  label: string;
  help: string;
}

const FLAG_TEXT: Record<NotificationFlag, SettingText> = {
  emailReminders: { label: 'Email reminders', help: 'An e-mail to the patient before the visit.' },
  smsReminders: { label: 'SMS reminders', help: "A text message to the patient's phone before the visit." },
  appointmentConfirmations: {
    label: 'Appointment confirmations',
    help: 'An e-mail to the patient when the visit is confirmed.',
  },
  newPatientAlerts: {
    label: 'New patient alerts',
    help: "An e-mail to the clinic's address when a patient is added.",
  },
};

const RECALL_REMINDERS_TEXT: SettingText = {
  label: 'Automatic recall reminders',
  help: 'Once for each due date, to patients not yet booked for it, by the email and SMS reminders switched on above. Patients already overdue are left to the recall list.',
};

type NumberSettingName = 'reminderLeadHours' | 'recallReminderDaysBefore' | 'idleTimeoutMinutes';

const NUMBER_TEXT: Record<NumberSettingName, SettingText> = {
  reminderLeadHours: {
    label: 'Send reminders this many hours before the visit',
    help: `From ${REMINDER_LEAD_MIN_HOURS} to ${REMINDER_LEAD_MAX_HOURS} hours, in the clinic's time zone.`,
  },
  recallReminderDaysBefore: {
    label: 'Send them this many days before the due date',
    help: `From ${RECALL_REMINDER_MIN_DAYS} to ${RECALL_REMINDER_MAX_DAYS} days.`,
  },
  idleTimeoutMinutes: {
    label: 'Sign out after this many minutes without activity',
    help: `From ${IDLE_TIMEOUT_MIN} to ${IDLE_TIMEOUT_MAX} minutes; applies to every member of staff.`,
  },
};

/** An on/off setting. */
function SwitchSetting({
  name,
  text,
  readOnly,
}: {
  name: 'recallRemindersEnabled' | ['notifications', NotificationFlag];
  text: SettingText;
  readOnly: boolean;
}) {
  return (
    <Form.Item name={name} label={text.label} valuePropName="checked" extra={text.help}>
      <Switch disabled={readOnly} />
    </Form.Item>
  );
}

/**
 * A whole-number setting with the range it takes said under it. The input has no min, max or
 * precision: they would change a wrong number silently; the schema's rule says what is wrong.
 */
function NumberSetting({ name, readOnly }: { name: NumberSettingName; readOnly: boolean }) {
  return (
    <Form.Item
      name={name}
      label={NUMBER_TEXT[name].label}
      rules={rulesFor(name)}
      extra={NUMBER_TEXT[name].help}
    >
      <InputNumber disabled={readOnly} />
    </Form.Item>
  );
}

/** Every zone this browser knows, for the time zone choice. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

/**
 * The practice's details, time zone (`timeZone`: the clinic's own, offered even when unknown here), hours,
 * and visit lengths with the dentist's part of each and the turnover between visits.
 */
export function GeneralSettings({ readOnly, timeZone }: { readOnly: boolean; timeZone: string }) {
  const zoneOptions = useMemo(
    () => timeZones(timeZone).map((zone) => ({ value: zone, label: zone })),
    [timeZone],
  );
  return (
    <Flex vertical gap={16}>
      <Card title="Practice" size="small">
        <Form.Item
          name="practiceName"
          label="Practice name"
          rules={[{ required: true, message: 'This field is required' }, ...rulesFor('practiceName')]}
        >
          <Input disabled={readOnly} />
        </Form.Item>
        <Form.Item name="address" label="Address" rules={rulesFor('address')}>
          <Input.TextArea rows={2} disabled={readOnly} />
        </Form.Item>
        <Flex wrap gap={16}>
          <Form.Item name="phone" label="Phone" rules={rulesFor('phone')} style={{ flex: '1 1 200px' }}>
            <Input type="tel" disabled={readOnly} />
          </Form.Item>
          <Form.Item name="email" label="Email" rules={rulesFor('email')} style={{ flex: '1 1 200px' }}>
            <Input type="email" disabled={readOnly} />
          </Form.Item>
        </Flex>
        <Form.Item
          name="timeZone"
          label="Time zone"
          rules={rulesFor('timeZone')}
          extra="The clinic's 'today', and the times reminders are sent in."
        >
          <Select showSearch={{ optionFilterProp: 'label' }} options={zoneOptions} disabled={readOnly} />
        </Form.Item>
      </Card>
      <Card title="Working hours" size="small">
        <WorkingHoursFields disabled={readOnly} />
      </Card>
      <Card title="Visit lengths and chair time" size="small">
        <VisitLengthsFields disabled={readOnly} />
      </Card>
    </Flex>
  );
}

/** What is sent and when; an admin also sees the outbox of what was. */
export function NotificationSettings({ readOnly, isAdmin }: { readOnly: boolean; isAdmin: boolean }) {
  return (
    <Flex vertical gap={16}>
      <Card size="small" title="What is sent">
        {NOTIFICATION_FLAGS.map((flag) => (
          <SwitchSetting
            key={flag}
            name={['notifications', flag]}
            text={FLAG_TEXT[flag]}
            readOnly={readOnly}
          />
        ))}
        <NumberSetting name="reminderLeadHours" readOnly={readOnly} />
      </Card>
      <Card size="small" title="Recall reminders">
        <SwitchSetting name="recallRemindersEnabled" text={RECALL_REMINDERS_TEXT} readOnly={readOnly} />
        <NumberSetting name="recallReminderDaysBefore" readOnly={readOnly} />
      </Card>
      {isAdmin && (
        <Card size="small" title="Outbox">
          <OutboxTable />
        </Card>
      )}
    </Flex>
  );
}

/** The clinic's idle sign-out, and one's own password (anyone's to change). */
export function SecuritySettings({ readOnly }: { readOnly: boolean }) {
  return (
    <Flex vertical gap={16}>
      <Card title="Idle sign-out" size="small">
        <NumberSetting name="idleTimeoutMinutes" readOnly={readOnly} />
      </Card>
      <Card title="Two-step sign-in for the clinic" size="small">
        <Form.Item
          name="mfaRequired"
          label="Require two-step sign-in for"
          rules={rulesFor('mfaRequired')}
          extra="Staff it covers who have not set it up are led through it at their next sign-in, before anything else."
        >
          <Select
            disabled={readOnly}
            style={{ maxWidth: 260 }}
            options={MFA_POLICIES.map((policy) => ({ value: policy, label: MFA_POLICY_LABELS[policy] }))}
          />
        </Form.Item>
      </Card>
      <TwoStepSignInCard />
      <SessionsCard />
      <Card title="Change your password" size="small">
        <ChangePasswordForm />
      </Card>
    </Flex>
  );
}
