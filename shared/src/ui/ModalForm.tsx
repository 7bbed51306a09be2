import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ButtonProps, Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, type Ref, type RefAttributes, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../api/client';
import type { LiveResource } from '../domain/liveDesk';
import { type EditConflict, useEditConflict, type Versioned } from './EditConflict';
import { ErrorBanner } from './ErrorBanner';
import { showServerErrors } from './schemaRules';

/** The record an edit form follows (EditConflict): another desk's change to it shows the form's alert. */
export interface FollowedRecord<Row extends Versioned> {
  /** Which clinic events are about it. */
  resource: LiveResource;
  /** The record the form opens with; null when the form adds a new one. */
  record: Row | null;
  /** Reads it as the server holds it now. */
  load: () => Promise<Row>;
}

export interface ModalFormOptions<Values, Saved, Row extends Versioned> {
  /** The form's instance (`Form.useForm<Values>()`): its type is the form's values. */
  form: FormInstance<Values>;
  /** The form is open: opening it (or 'Load theirs') fills it afresh. */
  open: boolean;
  /** The form's fields by the server's names: a server error naming one lands beside it, the rest in the banner. */
  fields: readonly string[];
  /** The record an edit form follows for other desks' changes; none for a form that only adds or acts. */
  follows?: FollowedRecord<Row>;
  /** What the form shows when it opens, from the record as shown (null when adding). */
  initialValues?: (shown: Row | null) => NoInfer<Partial<Values>>;
  /** What else fills the form afresh when it changes while open (the screen's filters, today). */
  refillOn?: readonly unknown[];
  /** Called each time the form is filled afresh: a form's own state starts again too. */
  onFill?: (shown: Row | null) => void;
  /**
   * The Save itself: with the record as shown (`edit.shown`) and the version to name in If-Match
   * (`edit.version()`). A stale answer (412) becomes the form's alert; other refusals are shown.
   */
  save: (values: NoInfer<Values>, edit: EditConflict<Row>) => Promise<Saved>;
  /** The lists a Save changes (their query keys): read again once it is saved, before `onSaved`. */
  invalidates?: readonly QueryKey[];
  onSaved: (saved: Saved, values: NoInfer<Values>) => void;
  /**
   * A form's own reading of a refusal, once its field errors are beside their fields: answers what
   * the banner says (by default `banner`, the message no field of the form is named by).
   */
  onSaveError?: (error: ApiError, banner: string | null) => string | null;
}

/** What a ModalForm draws from: the form, its banner, its Save and the edit conflict's alert. */
export interface ModalFormFrame<Values> {
  form: FormInstance<Values>;
  open: boolean;
  /** Validates the form and saves it (unless the record was deleted meanwhile). */
  submit: () => Promise<void>;
  saving: boolean;
  /** The refusal no field of the form is named by: the form's banner. */
  error?: string | null;
  dismissError?: () => void;
  /** The edit conflict's alert above the buttons, and Save disabled when the record is gone. */
  conflict?: Pick<EditConflict<unknown>, 'footer' | 'saveDisabled'>;
  /** The record the form edits; null (or none) when it adds one. */
  shown?: unknown;
  /** The dialog's Save button, for the edit conflict to bring focus back to once its alert is answered. */
  saveButton?: Ref<HTMLButtonElement>;
}

export interface ModalFormState<Values, Row> extends ModalFormFrame<Values> {
  error: string | null;
  dismissError: () => void;
  /** The record as the form shows it: as opened, or as 'Load theirs' brought it (null when adding). */
  shown: Row | null;
  conflict: EditConflict<Row>;
  saveButton: Ref<HTMLButtonElement>;
}

const sameItems = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((item, index) => Object.is(item, b[index]));

/**
 * A form's save, as every form of the product does it: filled afresh when opened, validated by its
 * rules, saved once at a time, the server's field errors beside their fields and the rest in the
 * banner, and, for an edit, another desk's change shown as an alert instead of being overwritten.
 */
export function useModalForm<Values, Saved, Row extends Versioned = Versioned>(
  options: ModalFormOptions<Values, Saved, Row>,
): ModalFormState<Values, Row> {
  const { form, open, follows } = options;
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const latest = useRef(options);
  latest.current = options;
  const saveButton = useRef<HTMLButtonElement>(null);
  // Another desk's change to the record while the form is open: an alert, never a silent overwrite.
  const conflict = useEditConflict<Row>({
    resource: follows?.resource ?? null,
    open: open && follows !== undefined,
    record: follows?.record ?? null,
    load: () => latest.current.follows?.load() ?? Promise.reject(new Error('No record to read')),
    resave: () => void submit(),
    saveButton,
  });
  const shown = conflict.shown;

  // Only opening the form (or 'Load theirs', or what `refillOn` names) fills it: a list read again
  // in the background leaves the typing alone.
  const filledFor = useRef<readonly unknown[]>([]);
  useEffect(() => {
    const now = [open, shown, form, ...(latest.current.refillOn ?? [])];
    if (sameItems(now, filledFor.current)) return;
    filledFor.current = now;
    if (!open) return;
    form.resetFields();
    const values = latest.current.initialValues?.(shown);
    if (values) form.setFieldsValue(values);
    setError(null);
    latest.current.onFill?.(shown);
  });

  const save = useMutation({
    mutationFn: (values: Values) => latest.current.save(values, conflict),
    onSuccess: (saved, values) => {
      for (const queryKey of latest.current.invalidates ?? [])
        void queryClient.invalidateQueries({ queryKey });
      latest.current.onSaved(saved, values);
    },
    onError: (failure: ApiError) => {
      if (conflict.handleSaveError(failure)) return;
      const { fields, onSaveError } = latest.current;
      const banner = showServerErrors(form, failure, fields);
      setError(onSaveError ? onSaveError(failure, banner) : banner);
    },
  });

  const submit = async () => {
    setError(null);
    if (conflict.saveDisabled) return;
    // A field that fails its rules says why beside it, and nothing is sent.
    await form.validateFields().then(
      (values) => save.mutate(values),
      () => undefined,
    );
  };

  return {
    form,
    open,
    submit,
    saving: save.isPending,
    error,
    dismissError: () => setError(null),
    shown,
    conflict,
    saveButton,
  };
}

/** What a screen hands its modal form: whether it is open, and what follows Cancel and a Save. */
export interface ModalFormOpenProps<Saved> {
  open: boolean;
  onClose: () => void;
  onSaved: (saved: Saved) => void;
}

/**
 * An add-or-edit form's words, by whether it shows a record (`frame.shown`): editing, its `edit`
 * title and 'Save Changes'; adding, its `add` title and `addOk` on Save.
 */
export interface AddOrEditWords {
  /** 'Edit Patient'. */
  edit: string;
  /** 'Add New Patient'. */
  add: string;
  /** Save's words when adding: 'Add Patient'. */
  addOk: string;
}

/** A dialog's title and Save's words: its own, or an add-or-edit form's (`words`). */
type ModalFormWords =
  | {
      title: ReactNode;
      /** Save's words: 'Move', 'Fill Dates'. */
      okText: ReactNode;
      words?: never;
    }
  | { words: AddOrEditWords; title?: never; okText?: never };

export type ModalFormProps<Values> = ModalFormWords & {
  /** The form's state: `useModalForm`, or a form's own that saves another way. */
  frame: ModalFormFrame<Values>;
  /** The form's name (its fields' ids start with it). */
  name: string;
  onCancel: () => void;
  /** Words above the form's banner. */
  intro?: ReactNode;
  /** What else shows between the banner and the fields (another banner). */
  notice?: ReactNode;
  /** The field the cursor starts in once the dialog has opened; none: antd's own focus. */
  focusOnOpen?: { readonly current: { focus: () => void } | null } | null;
  /** Renders the form while closed (its instance is connected before it first opens). */
  forceRender?: boolean;
  width?: number;
  onValuesChange?: (changed: Partial<Values>, all: Values) => void;
  children: ReactNode;
};

function titleAndOk({ title, okText, words }: ModalFormWords, editing: boolean) {
  if (!words) return { title, okText };
  return editing ? { title: words.edit, okText: 'Save Changes' } : { title: words.add, okText: words.addOk };
}

/**
 * The product's modal form: the dialog with its title, the banner for what no field is named by,
 * the fields, Save (pending while saving, disabled when the record was deleted meanwhile) and
 * Cancel, with the edit conflict's alert above them. Enter in a field submits, as in any form.
 */
export function ModalForm<Values>(props: ModalFormProps<Values>) {
  const { frame, name, onCancel, intro, notice, focusOnOpen, forceRender, width, onValuesChange, children } =
    props;
  const { form, open, submit, saving, error = null, dismissError, conflict, shown, saveButton } = frame;
  const { title, okText } = titleAndOk(props, shown != null);
  // antd hands okButtonProps to its Button whole, ref included; its ButtonProps type leaves ref out.
  const okButtonProps: ButtonProps & RefAttributes<HTMLButtonElement> = {
    disabled: conflict?.saveDisabled ?? false,
    ref: saveButton,
  };
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      onOk={() => void submit()}
      confirmLoading={saving}
      okButtonProps={okButtonProps}
      footer={conflict?.footer}
      onCancel={onCancel}
      afterOpenChange={(opened) => {
        if (opened) focusOnOpen?.current?.focus();
      }}
      width={width}
      destroyOnHidden
      forceRender={forceRender}
    >
      {intro}
      <ErrorBanner message={error} onClose={dismissError} reveal />
      {notice}
      <Form
        form={form}
        layout="vertical"
        name={name}
        requiredMark
        onFinish={() => void submit()}
        onValuesChange={onValuesChange}
      >
        {children}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
