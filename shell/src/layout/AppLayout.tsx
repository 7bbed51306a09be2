import { ROLE_LABELS, useAuthStore } from '@dental/shared';
import {
  Alert,
  AppstoreOutlined,
  Avatar,
  Button,
  CalendarOutlined,
  CarryOutOutlined,
  ClockCircleOutlined,
  DashboardOutlined,
  Drawer,
  Dropdown,
  HistoryOutlined,
  HourglassOutlined,
  InboxOutlined,
  Layout,
  LogoutOutlined,
  MedicineBoxOutlined,
  Menu,
  MenuOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TeamOutlined,
  Typography,
  UserOutlined,
} from '@dental/shared/ui';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { ToothLogo } from '../auth/ToothLogo';
import { LiveStatusNote } from '../live/LiveStatusNote';
import { useIdlePreload } from '../modules/idlePreload';
import { useModulesStore } from '../modules/modulesStore';
import { NotificationBell } from './NotificationBell';
import { buildNavigation, type ShellNavIcon } from './navigation';
import '../styles/layout.css';

const SIDEBAR_WIDTH = 232;

const NAV_ICON_COMPONENTS: Record<ShellNavIcon, ReactNode> = {
  dashboard: <DashboardOutlined />,
  modules: <AppstoreOutlined />,
  schedule: <ScheduleOutlined />,
  team: <TeamOutlined />,
  'medicine-box': <MedicineBoxOutlined />,
  'carry-out': <CarryOutOutlined />,
  hourglass: <HourglassOutlined />,
  inbox: <InboxOutlined />,
  clock: <ClockCircleOutlined />,
  calendar: <CalendarOutlined />,
  user: <UserOutlined />,
  audit: <HistoryOutlined />,
  setting: <SettingOutlined />,
};

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter((part) => part && !part.endsWith('.'))
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

/** Sidebar (fixed on large screens, a slide-over on small ones), top bar and the current page. */
export function AppLayout() {
  const user = useAuthStore((state) => state.user);
  const logout = useAuthStore((state) => state.logout);
  const entries = useModulesStore((state) => state.entries);
  const modulesFailed = useModulesStore((state) => state.status === 'error');
  const reloadModules = useModulesStore((state) => state.load);
  const resetModules = useModulesStore((state) => state.reset);
  const preload = useModulesStore((state) => state.preload);
  const navigate = useNavigate();
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);

  const navigation = useMemo(() => buildNavigation(user?.role, entries), [user?.role, entries]);
  const selected =
    navigation
      .filter((item) =>
        item.path === '/' ? location.pathname === '/' : location.pathname.startsWith(item.path),
      )
      .map((item) => item.path)[0] ?? '';

  useIdlePreload(
    useMemo(
      () => navigation.flatMap(({ moduleId, path }) => (moduleId ? [{ moduleId, path }] : [])),
      [navigation],
    ),
  );

  const pageLabel = navigation.find((item) => item.path === selected)?.label;
  useEffect(() => {
    const clinic = user?.clinicName ?? 'Dental Clinic';
    document.title = pageLabel ? `${pageLabel} · ${clinic}` : clinic;
  }, [pageLabel, user?.clinicName]);

  // The sidebar is drawn again only when its entries or the selected one change: a screen that keeps
  // its state in the query string (the Calendar's day, a list's page) changes the URL on every step.
  const menu = useMemo(
    () => (
      <>
        <nav aria-label="Main">
          <Menu
            mode="inline"
            selectedKeys={[selected]}
            aria-label="Main navigation"
            items={navigation.map((item) => {
              const { moduleId } = item;
              return {
                key: item.path,
                icon: NAV_ICON_COMPONENTS[item.icon],
                label: item.label,
                // The pointer on its way to a module's entry: its code starts loading before the click.
                onMouseEnter: moduleId ? () => void preload(moduleId, item.path) : undefined,
              };
            })}
            onClick={({ key }) => {
              navigate(key);
              setDrawerOpen(false);
            }}
          />
        </nav>
        {modulesFailed && (
          <Alert
            className="app-modules-alert"
            type="warning"
            showIcon
            title="Some areas could not be loaded."
            action={
              <Button size="small" onClick={() => void reloadModules()}>
                Retry
              </Button>
            }
          />
        )}
      </>
    ),
    [navigation, selected, navigate, modulesFailed, reloadModules, preload],
  );

  // Everything here happens at once, never after the server's answer to the sign-out: waiting for it
  // left the modules of the user who signed out in place until then, and reset those of whoever had
  // signed in meanwhile.
  const signOut = () => {
    void logout();
    resetModules();
    navigate('/login', { replace: true });
  };

  const brand = (
    <div className="app-brand">
      <ToothLogo size={22} /> {user?.clinicName ?? 'Dental Clinic'}
    </div>
  );

  return (
    <Layout className="app-layout">
      <Layout.Sider width={SIDEBAR_WIDTH} className="app-sider" theme="light" aria-label="Sidebar">
        {brand}
        {menu}
      </Layout.Sider>
      <Drawer
        placement="left"
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
        size={SIDEBAR_WIDTH}
        title={brand}
        styles={{ body: { padding: 0 } }}
      >
        {menu}
      </Drawer>
      <Layout className="app-main">
        <Layout.Header className="app-header">
          <Button
            className="app-menu-button"
            type="text"
            icon={<MenuOutlined />}
            aria-label="Open navigation"
            onClick={() => setDrawerOpen(true)}
          />
          <div className="app-header__spacer" />
          <LiveStatusNote />
          <NotificationBell />
          <Dropdown
            trigger={['click']}
            // The menu lives in the sticky header, so it moves with it. Put in <body>, it was placed in
            // page coordinates and put back under the header only on the scroll event that follows a
            // scroll: a scroll while it was open (a browser test scrolls an item into view while the
            // menu's opening animation runs) moved Sign out away between the press and the release of
            // a click, and the click then signed no one out.
            getPopupContainer={(trigger) => trigger.parentElement ?? document.body}
            menu={{
              items: [
                {
                  key: 'identity',
                  disabled: true,
                  label: (
                    <div className="app-user-card">
                      <Typography.Text strong>{user?.name}</Typography.Text>
                      <Typography.Text type="secondary">{user?.email}</Typography.Text>
                      <Typography.Text type="secondary">{user ? ROLE_LABELS[user.role] : ''}</Typography.Text>
                    </div>
                  ),
                },
                { type: 'divider' },
                {
                  key: 'signout',
                  icon: <LogoutOutlined />,
                  label: 'Sign out',
                  onClick: signOut,
                },
              ],
            }}
          >
            <button
              type="button"
              className="app-user-button"
              // Named by what it shows, the name and the role (WCAG 2.5.3: a voice user says what they
              // see); the initials repeat the name and are not read.
              aria-haspopup="menu"
            >
              <Avatar style={{ background: '#0e7490' }} aria-hidden>
                {initialsOf(user?.name ?? '')}
              </Avatar>
              <span className="app-user-button__text">
                <span className="app-user-button__name">{user?.name}</span>{' '}
                <span className="app-user-button__role">{user ? ROLE_LABELS[user.role] : ''}</span>
              </span>
            </button>
          </Dropdown>
        </Layout.Header>
        <Layout.Content className="app-content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
