import { DASHBOARD_STAT_NAMES, type DashboardStat } from '@dental/shared';
import {
  Card,
  CheckCircleOutlined,
  Col,
  ExclamationCircleOutlined,
  Row,
  Statistic,
  Tag,
  Typography,
  VisuallyHidden,
} from '@dental/shared/ui';

/** What each of the server's figures counts (server: GET /api/dashboard/stats), in words. */
const STAT_NOTES: Record<string, string> = {
  [DASHBOARD_STAT_NAMES.todayAppointments]:
    'Excludes cancelled visits · change vs the same weekday last week',
  [DASHBOARD_STAT_NAMES.pendingConfirmations]: 'From today on · change: next 7 days vs the last 7',
  [DASHBOARD_STAT_NAMES.totalPatients]: 'Active patients · change: new in the last 30 days',
  [DASHBOARD_STAT_NAMES.activeDentists]: 'Change: added in the last 30 days',
};

/** The change and whether it is good news: by colour, by icon and in words for screen readers. */
function StatChange({ stat }: { stat: DashboardStat }) {
  const positive = stat.changeType === 'positive';
  return (
    <Typography.Text
      type={positive ? 'success' : 'danger'}
      className="dashboard-stat__change"
      title={positive ? 'Positive change' : 'Negative change'}
    >
      {positive ? <CheckCircleOutlined aria-hidden /> : <ExclamationCircleOutlined aria-hidden />}
      <span className="dashboard-stat__change-value">{stat.change}</span>
      <VisuallyHidden>{positive ? ' (positive)' : ' (negative)'}</VisuallyHidden>
    </Typography.Text>
  );
}

export function StatCards({ stats, sample }: { stats: DashboardStat[]; sample: boolean }) {
  return (
    <Row gutter={[16, 16]} className="dashboard-stats">
      {stats.map((stat) => (
        <Col key={stat.name} xs={24} sm={12} xl={6}>
          <Card className="dashboard-stat" data-testid={`stat-${stat.name}`}>
            <Statistic title={stat.name} value={stat.value} />
            <div className="dashboard-stat__change-row">
              <StatChange stat={stat} />
              {sample && <Tag className="dashboard-sample-tag">Sample</Tag>}
            </div>
            {STAT_NOTES[stat.name] && (
              <Typography.Paragraph type="secondary" className="dashboard-stat__note">
                {STAT_NOTES[stat.name]}
              </Typography.Paragraph>
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
