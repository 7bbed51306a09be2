import { type ApiError, clinicExportFileName } from '@dental/shared';
import { useMutation, useQueryClient } from '@dental/shared/kit';
import { App, Button, ErrorBanner, Flex, Spin, Typography } from '@dental/shared/ui';
import { Descriptions } from '@dental/shared/ui/lists';
import { useState } from 'react';
import { exportClinicData, settingsKeys, useBackupStatus } from '../api/settings';

const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The Backup tab: the real state of the clinic's exports, and the Export itself for an admin. */
export function BackupPanel({ canExport }: { canExport: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const status = useBackupStatus();
  const [error, setError] = useState<string | null>(null);

  const exportData = useMutation({
    mutationFn: exportClinicData,
    onSuccess: (file) => {
      const blob = new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = clinicExportFileName(file.clinic.name, file.exported_at);
      document.body.append(link);
      link.click();
      link.remove();
      URL.revokeObjectURL(url);
      setError(null);
      message.success(
        `Exported ${file.patients.length} patients and ${file.appointments.length} appointments`,
      );
      void queryClient.invalidateQueries({ queryKey: settingsKeys.backup });
    },
    onError: (failure: ApiError) => setError(failure.message),
  });

  const last = status.data?.last_export;
  return (
    <Flex vertical gap={16}>
      <ErrorBanner
        message={status.isError ? (status.error as ApiError).message : null}
        onRetry={() => void status.refetch()}
      />
      <ErrorBanner message={error} onClose={() => setError(null)} />
      {status.isPending ? (
        <Spin aria-label="Loading backup status" />
      ) : (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label="Last export">
            {last
              ? `${whenFormat.format(new Date(last.at))} by ${last.by}`
              : "Never: the clinic's data has not been exported yet"}
          </Descriptions.Item>
          <Descriptions.Item label="What an export holds">
            Practice settings, users (no passwords), dentists, chairs, patients, availability, appointments,
            series, the waitlist and recall, as one JSON file.
          </Descriptions.Item>
        </Descriptions>
      )}
      {canExport ? (
        <div>
          <Button type="primary" loading={exportData.isPending} onClick={() => exportData.mutate()}>
            Export
          </Button>
        </div>
      ) : (
        <Typography.Text type="secondary">
          Only an administrator can export the clinic's data.
        </Typography.Text>
      )}
    </Flex>
  );
}
