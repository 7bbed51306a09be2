import {
  type ApiError,
  IDLE_TIMEOUT_MAX,
  IDLE_TIMEOUT_MIN,
  NOTIFICATION_FLAGS,
  type NotificationFlag,
  type PracticeSettings,
  practiceSettingsUpdateSchema,
  REMINDER_LEAD_MAX_HOURS,
  REMINDER_LEAD_MIN_HOURS,
  useAuthStore,
} from '@dental/shared';
import { parseAsStringLiteral, useMutation, useQueryClient, useQueryState } from '@dental/shared/kit';
import {
  Alert,
  Button,
  Card,
  ErrorBanner,
  Flex,
  Form,
  Input,
  InputNumber,
  PageHeading,
  Select,
  Spin,
  Switch,
  schemaRules,
  Tabs,
  Typography,
  useEditConflict,
} from '@dental/shared/ui';
import { useEffect, useMemo, useState } from 'react';
import { getSettings, saveSettings, settingsKeys, useSettings } from '../api/settings';
import { BackupPanel } from '../components/BackupPanel';
import { ChangePasswordForm } from '../components/ChangePasswordForm';
import { OutboxTable } from '../components/OutboxTable';
import { VisitLengthsFields } from '../components/VisitLengthsFields';
import { WorkingHoursFields } from '../components/WorkingHoursFields';

const TABS = ['general', 'notifications', 'security', 'backup'] as const;
const rulesFor = schemaRules(practiceSettingsUpdateSchema);
export const SAVED_MESSAGE = 'Settings saved successfully!';

const FLAG_TEXT: Record<NotificationFlag, { label: string; help: string }> = {
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

/** Every zone this browser knows, for the time zone choice. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

/**
 * Settings (spec §2): General, Notifications, Security and Backup. An admin saves the practice
 * settings on the server; everyone else reads them. Anyone changes their own password here.
 */
export default function SettingsPage() {
  const queryClient = useQueryClient();
  const isAdmin = useAuthStore((state) => state.user?.role === 'admin');
  const [tab, setTab] = useQueryState('tab', parseAsStringLiteral(TABS).withDefault('general'));
  const settings = useSettings();
  const [form] = Form.useForm<PracticeSettings>();
  const [saveError, setSaveError] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  // An admin edits the clinic's one row: another desk's change meanwhile is an alert, not lost typing.
  const conflict = useEditConflict({
    resource: 'settings',
    id: null,
    open: isAdmin,
    record: settings.data ?? null,
    load: getSettings,
    resave: () => void submit(),
  });
  // What the form shows: for an admin, the settings as read when the page opened (or as 'Load theirs'
  // or a Save brought them), so a read in the background never replaces what is being typed.
  const shown = isAdmin ? conflict.shown : (settings.data ?? null);

  useEffect(() => {
    if (shown) form.setFieldsValue(shown);
  }, [shown, form]);

  const save = useMutation({
    mutationFn: (body: Omit<PracticeSettings, 'version'>) => saveSettings(body, conflict.version()),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.settings, saved);
      conflict.saved(saved);
      setSaveError(null);
      // Said once, in the page's alert (spec §2), not again in a toast.
      setSavedAt(Date.now());
    },
    onError: (error: ApiError) => {
      if (conflict.handleSaveError(error)) return;
      // The server names nested fields with dots: workingHours.monday.end.
      const placed = error.fieldErrors.map((fieldError) => ({
        name: fieldError.field.split('.'),
        errors: [fieldError.message],
      }));
      // The server's paths are this form's own (the same schema); antd types them as tuples.
      form.setFields(placed as Parameters<typeof form.setFields>[0]);
      setSaveError(error.message);
    },
  });

  const submit = async () => {
    setSaveError(null);
    setSavedAt(null);
    if (conflict.saveDisabled) return;
    const values = await form.validateFields({ recursive: true }).catch(() => null);
    if (!values) {
      setSaveError('Some settings need correcting: see the marked fields.');
      return;
    }
    // The version goes in If-Match, not the body.
    const { version: _version, ...body } = form.getFieldsValue(true) as PracticeSettings;
    save.mutate(body);
  };

  const zoneOptions = useMemo(
    () => timeZones(settings.data?.timeZone ?? 'UTC').map((zone) => ({ value: zone, label: zone })),
    [settings.data?.timeZone],
  );
  const readOnly = !isAdmin;

  const items = [
    {
      key: 'general',
      label: 'General',
      forceRender: true,
      children: (
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
          <Card title="Visit lengths" size="small">
            <VisitLengthsFields disabled={readOnly} />
          </Card>
        </Flex>
      ),
    },
    {
      key: 'notifications',
      label: 'Notifications',
      forceRender: true,
      children: (
        <Flex vertical gap={16}>
          <Card size="small" title="What is sent">
            {NOTIFICATION_FLAGS.map((flag) => (
              <Form.Item
                key={flag}
                name={['notifications', flag]}
                label={FLAG_TEXT[flag].label}
                valuePropName="checked"
                extra={FLAG_TEXT[flag].help}
              >
                <Switch disabled={readOnly} />
              </Form.Item>
            ))}
            <Form.Item
              name="reminderLeadHours"
              label="Send reminders this many hours before the visit"
              rules={rulesFor('reminderLeadHours')}
              extra={`From ${REMINDER_LEAD_MIN_HOURS} to ${REMINDER_LEAD_MAX_HOURS} hours, in the clinic's time zone.`}
            >
              {/* No min/max/precision: they would change a wrong number silently; the rule says what is wrong. */}
              <InputNumber disabled={readOnly} />
            </Form.Item>
          </Card>
          {isAdmin && (
            <Card size="small" title="Outbox">
              <OutboxTable />
            </Card>
          )}
        </Flex>
      ),
    },
    {
      key: 'security',
      label: 'Security',
      forceRender: true,
      children: (
        <Flex vertical gap={16}>
          <Card title="Idle sign-out" size="small">
            <Form.Item
              name="idleTimeoutMinutes"
              label="Sign out after this many minutes without activity"
              rules={rulesFor('idleTimeoutMinutes')}
              extra={`From ${IDLE_TIMEOUT_MIN} to ${IDLE_TIMEOUT_MAX} minutes; applies to every member of staff.`}
            >
              <InputNumber disabled={readOnly} />
            </Form.Item>
          </Card>
          <Card title="Change your password" size="small">
            <ChangePasswordForm />
          </Card>
        </Flex>
      ),
    },
    { key: 'backup', label: 'Backup', children: <BackupPanel canExport={isAdmin} /> },
  ];

  const savesWithButton = tab !== 'backup';

  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div>
          <PageHeading>Settings</PageHeading>
          <Typography.Text type="secondary">
            The practice's details, hours, visit lengths, notifications and backup.
          </Typography.Text>
        </div>
        {isAdmin && savesWithButton && (
          <Button
            type="primary"
            loading={save.isPending}
            disabled={!settings.data || conflict.saveDisabled}
            onClick={() => void submit()}
          >
            Save Settings
          </Button>
        )}
      </Flex>

      <ErrorBanner
        message={settings.isError ? (settings.error as ApiError).message : null}
        onRetry={() => void settings.refetch()}
      />
      {conflict.alert}
      <ErrorBanner message={saveError} onClose={() => setSaveError(null)} />
      {savedAt !== null && (
        <Alert
          type="success"
          showIcon
          closable
          title={SAVED_MESSAGE}
          onClose={() => setSavedAt(null)}
          style={{ marginBottom: 16 }}
        />
      )}
      {readOnly && (
        <Alert
          type="info"
          showIcon
          title="Only an administrator can change the practice settings; you can change your own password under Security."
          style={{ marginBottom: 16 }}
        />
      )}

      {settings.isPending ? (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin aria-label="Loading settings" />
        </Flex>
      ) : (
        <Form form={form} layout="vertical" name="settings" requiredMark={!readOnly}>
          <Tabs
            activeKey={tab}
            // The four tabs fit a 320 px screen side by side, with no overflow menu hiding one.
            tabBarGutter={20}
            onChange={(key) => void setTab(key === 'general' ? null : (key as (typeof TABS)[number]))}
            items={items}
          />
        </Form>
      )}
    </div>
  );
}
