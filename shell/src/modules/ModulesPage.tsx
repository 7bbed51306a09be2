import { MODULE_CATALOG, type ModuleEntry } from '@dental/shared';
import { useClinicEvents } from '@dental/shared/kit';
import { App, Button, ErrorBanner, PageHeading, Typography } from '@dental/shared/ui';
import { Switch } from '@dental/shared/ui/forms';
import { Table, type TableColumnsType } from '@dental/shared/ui/lists';
import { useCallback, useEffect, useState } from 'react';
import { fetchAllModules, fetchModuleFailures, setModuleEnabled } from './modulesApi';
import { useModulesStore } from './modulesStore';
import { ReleaseHistory } from './ReleaseHistory';

/** The admin's switchboard: which modules this clinic uses. */
export function ModulesPage() {
  const { message } = App.useApp();
  const reloadModules = useModulesStore((state) => state.load);
  const loaded = useModulesStore((state) => state.modules);
  const ensureLoaded = useModulesStore((state) => state.ensureLoaded);
  const [modules, setModules] = useState<ModuleEntry[]>([]);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Each module's failures in this clinic's browsers over the last day (none known when unread).
  const [failures, setFailures] = useState<ReadonlyMap<string, number>>(new Map());
  // The module whose releases are being read.
  const [history, setHistory] = useState<ModuleEntry | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setModules(await fetchAllModules());
      setError(null);
      // The count is a help, not the page: a failed read of it leaves the switches usable.
      const counted = await fetchModuleFailures().catch(() => null);
      if (counted) setFailures(new Map(counted.data.map((row) => [row.module, row.count])));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);
  // Another admin's switch shows here at once (the shell reads the app's own list of modules again).
  useClinicEvents((event) => {
    if (event.resource === 'module') void load();
  });

  // Which build serves each enabled module: reading a module's description is cheap (no screen code).
  // The app's own list of enabled modules says where each is served from; it may arrive after this page's.
  const registered = useModulesStore((state) => state.entries);
  useEffect(() => {
    for (const entry of registered) void ensureLoaded(entry.id);
  }, [registered, ensureLoaded]);

  const buildOf = (entry: ModuleEntry, marked = true) => {
    if (!entry.enabled) return <Typography.Text type="secondary">Switched off</Typography.Text>;
    const state = loaded[entry.id];
    if (!state || state.state === 'loading')
      return <Typography.Text type="secondary">Reading...</Typography.Text>;
    if (state.state === 'failed')
      return <Typography.Text type="danger">Not loaded: {state.error}</Typography.Text>;
    return (
      <span>
        {state.description.version}, built{' '}
        <time
          data-testid={marked ? `module-build-${entry.id}` : undefined}
          dateTime={state.description.buildTime}
        >
          {state.description.buildTime}
        </time>
      </span>
    );
  };

  /** How often the module failed in this clinic's browsers over the last day. */
  const failuresOf = (entry: ModuleEntry) => {
    const count = failures.get(entry.id) ?? 0;
    return count === 0 ? (
      <Typography.Text type="secondary">None</Typography.Text>
    ) : (
      <Typography.Text type="danger">{count === 1 ? '1 failure' : `${count} failures`}</Typography.Text>
    );
  };

  /** The release this clinic runs (published and pointed at), and the way to its history. */
  const releaseOf = (entry: ModuleEntry) => (
    <span>
      <Typography.Text type="secondary">{entry.release ?? 'Build in place'}</Typography.Text>{' '}
      <Button
        type="link"
        size="small"
        aria-label={`Release history of ${entry.title}`}
        onClick={() => setHistory(entry)}
      >
        History
      </Button>
    </span>
  );

  const toggle = async (entry: ModuleEntry, enabled: boolean) => {
    setSaving(entry.id);
    try {
      const updated = await setModuleEnabled(entry.id, enabled);
      setModules((current) =>
        current.map((candidate) => (candidate.id === updated.id ? updated : candidate)),
      );
      message.success(`${entry.title} ${enabled ? 'switched on' : 'switched off'} for this clinic`);
      await reloadModules();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setSaving(null);
    }
  };

  const columns: TableColumnsType<ModuleEntry> = [
    {
      title: 'Module',
      dataIndex: 'title',
      key: 'title',
      render: (title: string, entry) => (
        <>
          <strong>{title}</strong>
          <br />
          <Typography.Text type="secondary">
            {MODULE_CATALOG[entry.id].pages.map((page) => page.label).join(', ')}
          </Typography.Text>
          {/* On a narrow screen the version and entry columns fold in here. */}
          <div className="modules-table__folded">
            <Typography.Text type="secondary">Version {entry.version}</Typography.Text>
            <br />
            <Typography.Text type="secondary">Serving: {buildOf(entry, false)}</Typography.Text>
            <br />
            <Typography.Text code>{entry.entry}</Typography.Text>
            <br />
            {releaseOf(entry)}
            <br />
            <Typography.Text type="secondary">Failures, last 24 hours: </Typography.Text>
            {failuresOf(entry)}
          </div>
        </>
      ),
    },
    { title: 'Version', dataIndex: 'version', key: 'version', responsive: ['md'] },
    {
      title: 'Entry',
      dataIndex: 'entry',
      key: 'entry',
      responsive: ['md'],
      render: (entry: string) => <Typography.Text code>{entry}</Typography.Text>,
    },
    {
      title: 'Release',
      key: 'release',
      responsive: ['md'],
      render: (_, entry) => releaseOf(entry),
    },
    {
      title: 'Failures (24 h)',
      key: 'failures',
      responsive: ['md'],
      render: (_, entry) => failuresOf(entry),
    },
    {
      title: 'Serving build',
      key: 'build',
      responsive: ['md'],
      render: (_, entry) => buildOf(entry),
    },
    {
      title: 'Enabled',
      key: 'enabled',
      render: (_, entry) => (
        <Switch
          checked={entry.enabled}
          loading={saving === entry.id}
          aria-label={`${entry.title} enabled`}
          onChange={(checked) => void toggle(entry, checked)}
        />
      ),
    },
  ];

  return (
    <div>
      <PageHeading>Modules</PageHeading>
      <Typography.Paragraph type="secondary">
        Switch the areas of the app on or off for your clinic. A module switched off disappears, with all its
        screens, from everyone's sidebar here; other clinics are not affected. Each module runs the release
        published for this clinic, else the default one.
      </Typography.Paragraph>
      <ErrorBanner message={error} onClose={() => setError(null)} />
      <Table
        className="modules-table"
        rowKey="id"
        columns={columns}
        dataSource={modules}
        loading={loading}
        pagination={false}
      />
      <ReleaseHistory module={history} onClose={() => setHistory(null)} />
    </div>
  );
}
