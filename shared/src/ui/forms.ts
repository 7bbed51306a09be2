/**
 * The UI kit's forms (`@dental/shared/ui/forms`): antd's inputs and the modal form, its fields, the
 * server's rules beside them, another desk's edit and a record being edited. A screen that draws a form
 * loads this entry; the dashboard does not (docs/architecture.md, The UI kit).
 */

export type { FormInstance } from 'antd';
export {
  AutoComplete,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Segmented,
  Select,
  Switch,
} from 'antd';
export { useEditConflict } from './EditConflict';
export { FieldRow, NameEmailPhoneFields, optionsOf, StatusField, TextField } from './formFields';
export { ModalForm, type ModalFormOpenProps, useModalForm } from './ModalForm';
export { type RecordEditor, useRecordEditor } from './recordEditor';
export { schemaRules } from './schemaRules';
