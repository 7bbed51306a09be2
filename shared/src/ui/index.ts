/**
 * The UI kit: the antd components and icons the product uses, re-exported from one place so that
 * antd is tree-shaken once and shared by the shell and every module as a single instance (one theme,
 * one App context). It exports only what the shell and the modules import; a module that needs
 * another component adds it here, and shared's own files import the rest by path.
 */

// antd's components, as the screens compose them.
export type { FormInstance, MenuProps, TableColumnsType } from 'antd';
export {
  Alert,
  App,
  AutoComplete,
  Avatar,
  Badge,
  Button,
  Card,
  Checkbox,
  Col,
  Descriptions,
  Drawer,
  Dropdown,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Layout,
  List,
  Menu,
  Modal,
  Pagination,
  Popconfirm,
  Radio,
  Result,
  Row,
  Segmented,
  Select,
  Skeleton,
  Spin,
  Statistic,
  Switch,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
export { ActiveTag } from './ActiveTag';
export { APPOINTMENT_STATUS_COLORS, AppointmentStatusTag, OnlineTag } from './AppointmentTags';
// List screens: the list frame, its rows' actions and deletes, its cards and its filter bar.
export { CardTitle, cardActions } from './cardParts';
// Forms: the modal form and its fields, the server's rules beside them, and another desk's edit.
export { useEditConflict } from './EditConflict';
// The page's frame: the theme and App context, headings, and parts for screen readers and small screens.
export { ErrorBanner } from './ErrorBanner';
// Booking a freed time for a waiting patient.
export { FillFreedTime } from './FillFreedTime';
export { FilterChoicesError } from './FilterChoicesError';
export { FieldRow, NameEmailPhoneFields, optionsOf, StatusField, TextField } from './formFields';
// The icons the screens show.
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
export { ListPage, listQueryOf } from './ListPage';
export { ClearFilters, FilterSelect, ListFilters } from './listFilters';
export { ModalForm, type ModalFormOpenProps, useModalForm } from './ModalForm';
export { PageHeading } from './PageHeading';
export { type RecordEditor, useRecordEditor } from './recordEditor';
export { deleteRowAction, editRowAction, type RowAction, RowActions, rowActionsColumn } from './rowActions';
export { ARRIVED_ROW_CLASS } from './rowArrivals';
export { useActionError, useConfirmDelete, useRowAction, useRowDelete } from './rowDelete';
export { ScrollRegion } from './ScrollRegion';
export { schemaRules } from './schemaRules';
// Two-step sign-in: the authenticator's key, its codes and the recovery codes.
export { RecoveryCodesList, TotpCodeField, TotpKey } from './secondFactor';
export { UiProvider } from './UiProvider';
export { VisuallyHidden } from './VisuallyHidden';
