import type { ApiError } from '@dental/shared';
import { formatDateTime } from '@dental/shared/kit';
import { ErrorBanner, Flex, Skeleton, Typography } from '@dental/shared/ui';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { usePatientAccess } from '../api/patientAccess';

/** What an opening showed, as the audit record names it (`details.opened`). */
const OPENED: Record<string, string> = {
  details: 'Opened the details',
  appointments: 'Opened the appointments',
};

function openedOf(details: Record<string, unknown> | null): string | null {
  const opened = details?.opened;
  return typeof opened === 'string' ? (OPENED[opened] ?? `Opened ${opened}`) : null;
}

/** Where the Audit screen shows every opening of this patient's record (its URL filters). */
export const patientAccessAuditUrl = (patientId: number) => `/audit?patient=${patientId}&action=view`;

/**
 * 'Who opened this record' in a patient's details: the latest openings, who and when, and the way to
 * all of them on the Audit screen. Mounted only for those who may open that screen (the caller asks
 * the catalogue, `useMayOpen('/audit')`): for anyone else nothing is asked.
 */
export function PatientAccessHistory({ patientId }: { patientId: number }) {
  const headingId = useId();
  const access = usePatientAccess(patientId);
  const records = access.data?.data;

  return (
    <section aria-labelledby={headingId}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ margin: '24px 0 12px' }}>
        <Typography.Title level={4} id={headingId} style={{ margin: 0 }}>
          Who opened this record
        </Typography.Title>
        <Link to={patientAccessAuditUrl(patientId)}>See all in Audit</Link>
      </Flex>
      <ErrorBanner
        message={access.error ? (access.error as ApiError).message : null}
        onRetry={() => void access.refetch()}
      />
      {access.isPending ? (
        <Skeleton active title={false} paragraph={{ rows: 3 }} />
      ) : records && records.length === 0 ? (
        <Typography.Text type="secondary">No one has opened this record yet.</Typography.Text>
      ) : records ? (
        <ul aria-label="Latest openings of this record" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {records.map((record) => {
            const opened = openedOf(record.details);
            return (
              <li key={record.id} style={{ padding: '6px 0', borderBottom: '1px solid rgba(5, 5, 5, 0.06)' }}>
                <Flex justify="space-between" align="baseline" wrap style={{ columnGap: 8 }}>
                  <strong>{record.user_name ?? 'System'}</strong>
                  <time dateTime={record.created_at} style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(record.created_at)}
                  </time>
                </Flex>
                {opened && <Typography.Text type="secondary">{opened}</Typography.Text>}
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
