import { App } from 'antd';
import { useState } from 'react';

/** A screen's add-or-edit form: which record it is open for, and what saving it says. */
export interface RecordEditor<Row, Extra> {
  /** The form is open, adding or editing. */
  open: boolean;
  /** The record being edited; null when adding or closed. */
  record: Row | null;
  /** What the screen asked the form for besides the record (e.g. the field to start at). */
  extra: Extra | undefined;
  add: () => void;
  edit: (record: Row, extra?: Extra) => void;
  close: () => void;
  /** The form's `onSaved`: says "Mia Martin was saved" (or "was added") and closes the form. */
  saved: (saved: { name: string }) => void;
}

/** The state of a screen's one form that adds its records and edits them, shared by every list and card. */
export function useRecordEditor<Row, Extra = never>(): RecordEditor<Row, Extra> {
  const { message } = App.useApp();
  const [opened, setOpened] = useState<{ record: Row | null; extra?: Extra } | null>(null);
  return {
    open: opened !== null,
    record: opened?.record ?? null,
    extra: opened?.extra,
    add: () => setOpened({ record: null }),
    edit: (record, extra) => setOpened({ record, extra }),
    close: () => setOpened(null),
    saved: (saved) => {
      message.success(opened?.record ? `${saved.name} was saved` : `${saved.name} was added`);
      setOpened(null);
    },
  };
}
