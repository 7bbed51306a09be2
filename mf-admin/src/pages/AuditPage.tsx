import type { ApiError, AuditRecord } from '@dental/shared';
import {
  emptyListText,
  parseAsDay,
  parseAsId,
  parseAsString,
  tablePagination,
  useListState,
} from '@dental/shared/kit';
import {
  App,
  Button,
  ErrorBanner,
  Flex,
  PageHeading,
  ScrollRegion,
  Tag,
  Typography,
} from '@dental/shared/ui';
import { Table, type TableColumnsType } from '@dental/shared/ui/lists';
import { useState } from 'react';
import { type AuditFilters as AuditFilterParams, downloadAuditCsv, useAuditRecords } from '../api/audit';
import { AuditChainButton, AuditChainResult, useAuditChainCheck } from '../components/AuditChainCheck';
import { AuditFilters, actionLabel } from '../components/AuditFilters';

const FILTERS = {
  user: parseAsId,
  patient: parseAsId,
  action: parseAsString,
  from: parseAsDay,
  to: parseAsDay,
};
const SORTS = ['-created_at'] as const;

const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The details of a record in one short line: `opened: details, ip: 10.0.0.1`. */
function compactDetails(details: AuditRecord['details']): string {
  if (!details) return '';
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

const columns: TableColumnsType<AuditRecord> = [
  {
    title: 'When',
    key: 'when',
    render: (_, record) => (
      <time dateTime={record.created_at} style={{ whiteSpace: 'nowrap' }}>
        {whenFormat.format(new Date(record.created_at))}
      </time>
    ),
  },
  {
    title: 'User',
    key: 'user',
    onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    render: (_, record) => record.user_name ?? <Typography.Text type="secondary">System</Typography.Text>,
  },
  { title: 'Action', key: 'action', render: (_, record) => <Tag>{actionLabel(record.action)}</Tag> },
  {
    title: 'Record',
    key: 'record',
    onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    render: (_, record) => (record.entity_id ? `${record.entity} #${record.entity_id}` : record.entity),
  },
  {
    title: 'Details',
    key: 'details',
    render: (_, record) => {
      const text = compactDetails(record.details);
      return (
        <span style={{ display: 'inline-block', minWidth: 200, maxWidth: 240, overflowWrap: 'anywhere' }}>
          {text}
        </span>
      );
    },
  },
  {
    title: 'Place in the chain',
    key: 'place',
    align: 'right',
    width: 100,
    render: (_, record) =>
      record.place > 0 ? record.place : <Typography.Text type="secondary">Not sealed yet</Typography.Text>,
  },
];

/** Saves what the server sent as a file the browser downloads. */
function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Audit (admins): who did and who looked at what in the clinic's records, and whether it was altered. */
export default function AuditPage() {
  const { message } = App.useApp();
  const list = useListState({ sorts: SORTS, filters: FILTERS });
  const { state } = list;
  const filters: AuditFilterParams = {
    user_id: state.user ?? undefined,
    patient_id: state.patient ?? undefined,
    action: state.action ?? undefined,
    from: state.from ?? undefined,
    to: state.to ?? undefined,
  };
  const records = useAuditRecords({ ...filters, page: state.page, limit: state.pageSize });
  const check = useAuditChainCheck();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const downloadCsv = async () => {
    setDownloading(true);
    try {
      saveFile(await downloadAuditCsv(filters), 'audit.csv');
      setDownloadError(null);
      message.success('The audit log was downloaded');
    } catch (failure) {
      setDownloadError((failure as ApiError).message);
    } finally {
      setDownloading(false);
    }
  };

  const page = records.data;
  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="flex-start" wrap gap={12}>
        <div>
          <PageHeading>Audit</PageHeading>
          <Typography.Text type="secondary">
            Who did and who looked at what in the clinic's records.
          </Typography.Text>
        </div>
        <Flex gap={8} wrap>
          <AuditChainButton check={check} />
          <Button type="primary" loading={downloading} onClick={() => void downloadCsv()}>
            Download CSV
          </Button>
        </Flex>
      </Flex>
      <ErrorBanner
        message={records.isError ? (records.error as ApiError).message : null}
        onRetry={() => void records.refetch()}
      />
      <ErrorBanner message={downloadError} onClose={() => setDownloadError(null)} />
      <ErrorBanner message={check.isError ? check.error.message : null} onClose={() => check.reset()} />
      <AuditChainResult check={check} />
      <AuditFilters
        values={{
          user: state.user,
          patient: state.patient,
          action: state.action,
          from: state.from,
          to: state.to,
        }}
        onChange={list.setFilters}
        onReset={list.reset}
        isFiltered={list.isFiltered}
      />
      <ScrollRegion label="Audit records">
        <Table<AuditRecord>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={page?.data ?? []}
          loading={records.isFetching}
          locale={{
            emptyText: emptyListText(records, list.isFiltered, {
              noMatch: 'No audit records match these filters',
              none: 'No audit records yet',
            }),
          }}
          pagination={tablePagination(state, page?.total ?? 0, list.setPage, page?.total_capped)}
        />
      </ScrollRegion>
    </Flex>
  );
}
