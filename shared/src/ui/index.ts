/**
 * The UI kit's frame: what every signed-in page draws (the layout, cards, tags, headings, banners
 * and icons), re-exported from one place so that antd is shared by the shell and every module as a
 * single instance (one theme, one App context). Forms, lists and two-step sign-in are entries of their
 * own (`@dental/shared/ui/forms`, `/ui/lists`, `/ui/second-factor`), loaded by the first screen that
 * draws one, so the dashboard does not download them (docs/architecture.md, The UI kit). Each entry
 * exports only what the shell and the modules import; shared's own files import antd by path.
 */

export type { MenuProps } from 'antd';
export {
  Alert,
  App,
  Avatar,
  Badge,
  Button,
  Card,
  Col,
  Drawer,
  Dropdown,
  Empty,
  Flex,
  Layout,
  Menu,
  Result,
  Row,
  Skeleton,
  Spin,
  Statistic,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
export { ActiveTag } from './ActiveTag';
export { APPOINTMENT_STATUS_COLORS, AppointmentStatusTag, OnlineTag } from './AppointmentTags';
export { ErrorBanner } from './ErrorBanner';
export {
  AppstoreOutlined,
  ArrowDownOutlined,
  ArrowUpOutlined,
  BellOutlined,
  CalendarOutlined,
  CarryOutOutlined,
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  DashboardOutlined,
  DeleteOutlined,
  EditOutlined,
  ExclamationCircleOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  FilterOutlined,
  HistoryOutlined,
  HourglassOutlined,
  IdcardOutlined,
  InboxOutlined,
  KeyOutlined,
  LeftOutlined,
  LogoutOutlined,
  MailOutlined,
  MedicineBoxOutlined,
  MenuOutlined,
  PhoneOutlined,
  PlusOutlined,
  RightOutlined,
  ScheduleOutlined,
  SettingOutlined,
  SwapOutlined,
  TeamOutlined,
  UserAddOutlined,
  UserOutlined,
} from './icons';
export { PageHeading } from './PageHeading';
export { ScrollRegion } from './ScrollRegion';
export { UiProvider } from './UiProvider';
export { VisuallyHidden } from './VisuallyHidden';
