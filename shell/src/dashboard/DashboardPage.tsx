import { useAuthStore } from '@dental/shared';
import { Avatar, Card, Col, Empty, ErrorBanner, Row, Statistic, Tag, Typography } from '@dental/shared/ui';
import { useCallback, useEffect, useState } from 'react';
import {
  fetchDashboardStats,
  fetchTodayAppointments,
  type StatCard,
  type TodayAppointment,
} from './dashboardApi';

export const DASHBOARD_LOAD_FAILED = 'Failed to load dashboard data. Showing sample data.';

/** Shown, and labelled as such, only when the clinic's figures cannot be read (spec §8). */
const SAMPLE_STATS: StatCard[] = [
  { name: "Today's Appointments", value: 8, change: '+2', changeType: 'positive' },
  { name: 'Pending Confirmations', value: 3, change: '-1', changeType: 'positive' },
  { name: 'Total Patients', value: 240, change: '+12', changeType: 'positive' },
  { name: 'Active Dentists', value: 4, change: '0', changeType: 'positive' },
];
const SAMPLE_APPOINTMENTS: TodayAppointment[] = [
  { id: -1, patient: 'Sample Patient', treatment: 'Dental Checkup', time: '09:00', status: 'confirmed' },
  { id: -2, patient: 'Example Person', treatment: 'Regular Cleaning', time: '10:30', status: 'pending' },
];

function initials(name: string): string {
  return name
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

export function DashboardPage() {
  const user = useAuthStore((state) => state.user);
  const [stats, setStats] = useState<StatCard[]>([]);
  const [appointments, setAppointments] = useState<TodayAppointment[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [sampleStats, setSampleStats] = useState(false);
  const [sampleAppointments, setSampleAppointments] = useState(false);

  // Both are asked for together; what failed is replaced by labelled sample data, what came stays.
  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    const [loadedStats, loadedAppointments] = await Promise.allSettled([
      fetchDashboardStats(),
      fetchTodayAppointments(),
    ]);
    const statsFailed = loadedStats.status === 'rejected';
    const appointmentsFailed = loadedAppointments.status === 'rejected';
    setStats(statsFailed ? SAMPLE_STATS : loadedStats.value);
    setAppointments(appointmentsFailed ? SAMPLE_APPOINTMENTS : loadedAppointments.value);
    setSampleStats(statsFailed);
    setSampleAppointments(appointmentsFailed);
    if (statsFailed || appointmentsFailed) setError(DASHBOARD_LOAD_FAILED);
    setLoading(false);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Dashboard
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Welcome back, {user?.name}. Here is what is happening at {user?.clinicName ?? 'your clinic'} today.
      </Typography.Paragraph>

      <ErrorBanner message={error} onClose={() => setError(null)} onRetry={() => void load()} />

      {loading ? (
        <Typography.Paragraph role="status">Loading dashboard...</Typography.Paragraph>
      ) : (
        <>
          <Row gutter={[16, 16]} style={{ marginBottom: 24 }}>
            {stats.map((stat) => (
              <Col key={stat.name} xs={24} sm={12} xl={6}>
                <Card>
                  <Statistic title={stat.name} value={stat.value} />
                  <Typography.Text type={stat.changeType === 'positive' ? 'success' : 'danger'}>
                    {stat.change}
                  </Typography.Text>
                  {sampleStats && (
                    <Tag style={{ marginLeft: 8 }} color="default">
                      Sample
                    </Tag>
                  )}
                </Card>
              </Col>
            ))}
          </Row>

          <Card title="Today's Appointments" extra={sampleAppointments ? <Tag>Sample</Tag> : null}>
            {appointments.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No appointments scheduled for today" />
            ) : (
              <ul className="today-list">
                {appointments.map((appointment) => (
                  <li key={appointment.id} className="today-list__row">
                    <Avatar style={{ background: '#0891b2' }}>{initials(appointment.patient)}</Avatar>
                    <div className="today-list__text">
                      <Typography.Text strong>{appointment.patient}</Typography.Text>
                      <Typography.Text type="secondary">{`${appointment.treatment} · ${appointment.time}`}</Typography.Text>
                    </div>
                    <Tag color={appointment.status === 'confirmed' ? 'green' : 'gold'}>
                      {appointment.status}
                    </Tag>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </div>
  );
}
