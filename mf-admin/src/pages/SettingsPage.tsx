import { type ApiError, type PracticeSettings, useAuthStore } from '@dental/shared';
import { parseAsStringLiteral, useMutation, useQueryClient, useQueryState } from '@dental/shared/kit';
import { Alert, Button, ErrorBanner, Flex, PageHeading, Spin, Typography } from '@dental/shared/ui';
import { Form, useEditConflict } from '@dental/shared/ui/forms';
import { Tabs } from '@dental/shared/ui/lists';
import { useEffect, useRef, useState } from 'react';
import { getSettings, saveSettings, settingsKeys, useSettings } from '../api/settings';
import { BackupPanel } from '../components/BackupPanel';
import { ChairsPanel } from '../components/ChairsPanel';
import { OnlineBookingSettings } from '../components/OnlineBookingSettings';
import { RecallTypesPanel } from '../components/RecallTypesPanel';
import { GeneralSettings, NotificationSettings, SecuritySettings } from '../components/SettingsPanels';
import { visitTypeError } from '../components/VisitTypesField';

const TABS = ['general', 'notifications', 'security', 'backup'] as const;
export const SAVED_MESSAGE = 'Settings saved successfully!';

/**
 * Settings (docs/product.md, Screens): General (with the recall types, chairs and online booking),
 * Notifications, Security and Backup. An admin saves the practice settings on the server; everyone else reads them.
 * Anyone changes their own password here.
 */
export default function SettingsPage() {
  const queryClient = useQueryClient();
  const isAdmin = useAuthStore((state) => state.user?.role === 'admin');
  const [tab, setTab] = useQueryState('tab', parseAsStringLiteral(TABS).withDefault('general'));
  const settings = useSettings();
  const [form] = Form.useForm<PracticeSettings>();
  const [saveError, setSaveError] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  // An admin edits the clinic's one row: another desk's change meanwhile is an alert, not lost typing.
  const conflict = useEditConflict({
    resource: 'settings',
    id: null,
    open: isAdmin,
    record: settings.data ?? null,
    load: getSettings,
    resave: () => void submit(),
    saveButton,
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
      // Said once, in the page's alert (docs/product.md, Screens), not again in a toast.
      setSavedAt(Date.now());
    },
    onError: (error: ApiError, body) => {
      if (conflict.handleSaveError(error)) return;
      // The server names nested fields with dots: workingHours.monday.end. A visit type's refusal
      // (onlineBooking.visitTypes.2.newPatients) goes on the visit types' one field, naming its treatment.
      const placed: Array<{ name: string[]; errors: string[] }> = [];
      for (const fieldError of error.fieldErrors) {
        const visitType = visitTypeError(
          fieldError.field,
          fieldError.message,
          body.onlineBooking?.visitTypes,
        );
        const name = visitType?.name ?? fieldError.field.split('.');
        const message = visitType?.message ?? fieldError.message;
        const same = placed.find((each) => each.name.join('.') === name.join('.'));
        if (same) same.errors.push(message);
        else placed.push({ name, errors: [message] });
      }
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

  const readOnly = !isAdmin;

  const items = [
    {
      key: 'general',
      label: 'General',
      forceRender: true,
      children: (
        <Flex vertical gap={16}>
          <GeneralSettings readOnly={readOnly} timeZone={settings.data?.timeZone ?? 'UTC'} />
          {/* Beside the treatments' lengths: what each recall books, and how often. Saved as changed. */}
          <RecallTypesPanel canEdit={isAdmin} />
          {/* The clinic's chairs, each saved as changed like the recall types. */}
          <ChairsPanel canEdit={isAdmin} />
          {/* Beside the chairs bookable online: what patients may book themselves, saved with the rest. */}
          <OnlineBookingSettings readOnly={readOnly} slug={settings.data?.slug ?? ''} />
        </Flex>
      ),
    },
    {
      key: 'notifications',
      label: 'Notifications',
      forceRender: true,
      children: <NotificationSettings readOnly={readOnly} isAdmin={isAdmin} />,
    },
    {
      key: 'security',
      label: 'Security',
      forceRender: true,
      children: <SecuritySettings readOnly={readOnly} />,
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
            The practice's details, hours, visit lengths, notifications, recall, chairs, online booking and
            backup.
          </Typography.Text>
        </div>
        {isAdmin && savesWithButton && (
          <Button
            ref={saveButton}
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
            // The four tabs fit a 320 px screen side by side: a fifth would overflow into antd's "..."
            // menu, which sits inside the tab list where screen readers expect only tabs (axe). Online
            // booking is therefore a part of General.
            tabBarGutter={20}
            onChange={(key) => void setTab(key === 'general' ? null : (key as (typeof TABS)[number]))}
            items={items}
          />
        </Form>
      )}
    </div>
  );
}
