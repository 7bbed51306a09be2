import { type ApiError, hasPermission, useAuthStore } from '@dental/shared';
import { Col, ErrorBanner, PageHeading, Row, Typography } from '@dental/shared/ui';
import { useState } from 'react';
import { useModulesStore } from '../modules/modulesStore';
import { useDashboardStats, useTodayAppointments } from './dashboardApi';
import { RecentActivityCard } from './RecentActivityCard';
import { StatCards } from './StatCards';
import { SAMPLE_STATS, sampleAppointments } from './sampleData';
import { TodayAppointmentsCard } from './TodayAppointmentsCard';

export const DASHBOARD_LOAD_FAILED = 'Failed to load dashboard data. Showing sample data.';

/** Dashboard (docs/product.md, Screens): the day at a glance for any signed-in member of staff. */
export function DashboardPage() {
  const user = useAuthStore((state) => state.user);
  const modulesStatus = useModulesStore((state) => state.status);
  const modules = useModulesStore((state) => state.entries);
  // Both are asked for together, on the first render; each fails or succeeds on its own.
  const stats = useDashboardStats();
  const today = useTodayAppointments();
  const [dismissedAt, setDismissedAt] = useState(0);

  // What failed (and was never read) is replaced by sample data, marked as such; what came stays real.
  const statsFailed = stats.isError && stats.data === undefined;
  const todayFailed = today.isError && today.data === undefined;
  const failedAt = Math.max(statsFailed ? stats.errorUpdatedAt : 0, todayFailed ? today.errorUpdatedAt : 0);
  const bannerMessage = (statsFailed || todayFailed) && failedAt > dismissedAt ? DASHBOARD_LOAD_FAILED : null;
  const retry = () => {
    if (statsFailed) void stats.refetch();
    if (todayFailed) void today.refetch();
  };

  const loading = stats.isPending || today.isPending;
  // A row opens the Appointments screen, when this user has it and the clinic has not switched it off.
  const appointmentsOff = modulesStatus === 'ready' && !modules.some((entry) => entry.id === 'appointments');
  const linkable = hasPermission(user?.role, 'appointments') && !appointmentsOff;

  return (
    <div className="dashboard">
      <PageHeading>Dashboard</PageHeading>
      <Typography.Paragraph type="secondary">
        Welcome back, {user?.name}. Here is what is happening at {user?.clinicName ?? 'your clinic'} today.
      </Typography.Paragraph>

      <ErrorBanner message={bannerMessage} onClose={() => setDismissedAt(failedAt)} onRetry={retry} />

      {loading ? (
        <Typography.Paragraph role="status">Loading dashboard...</Typography.Paragraph>
      ) : (
        <>
          <StatCards stats={statsFailed ? SAMPLE_STATS : (stats.data ?? [])} sample={statsFailed} />
          {statsFailed && (
            <Typography.Paragraph type="secondary" className="dashboard-sample-note">
              {`Sample figures, not your clinic's (${(stats.error as ApiError).message}).`}
            </Typography.Paragraph>
          )}
          <Row gutter={[16, 16]} className="dashboard-panels">
            <Col xs={24} lg={14}>
              <TodayAppointmentsCard
                appointments={todayFailed ? sampleAppointments() : (today.data ?? [])}
                sample={todayFailed}
                sampleReason={todayFailed ? (today.error as ApiError).message : undefined}
                linkable={linkable}
              />
            </Col>
            <Col xs={24} lg={10}>
              <RecentActivityCard />
            </Col>
          </Row>
        </>
      )}
    </div>
  );
}
