import { screen, waitFor, within } from '@testing-library/react';
import { Form, Input } from 'antd';
import { useState } from 'react';
import { ApiError } from '../api/client';
import { STALE_WRITE_MESSAGE } from '../domain/liveDesk';
import { findDialog, renderScreen, staffMember } from '../testing';
import { ModalForm, useModalForm } from './ModalForm';

interface NoteValues {
  title: string;
  body?: string;
}

interface Note {
  id: number;
  title: string;
  version: number;
}

interface SampleProps {
  save: (values: NoteValues, version: number | undefined) => Promise<Note>;
  onSaved?: (note: Note) => void;
  onClose?: () => void;
  /** The note to edit; none: 'Add Note'. */
  note?: Note | null;
  load?: () => Promise<Note>;
}

/** A form as the product's forms are written: its fields and its save call, in the frame. */
function NoteForm({
  save,
  onSaved = () => {},
  onClose = () => {},
  note = null,
  load = () => Promise.reject(new Error('none')),
}: SampleProps) {
  const [open, setOpen] = useState(true);
  const [form] = Form.useForm<NoteValues>();
  const frame = useModalForm({
    form,
    open,
    fields: ['title', 'body'],
    follows: { resource: 'patient', record: note, load },
    initialValues: (shown) => ({ title: shown?.title ?? 'Untitled' }),
    save: (values, { version }) => save(values, version()),
    onSaved: (note) => onSaved(note),
  });
  return (
    <ModalForm
      frame={frame}
      name="note"
      title={frame.shown ? 'Edit Note' : 'Add Note'}
      okText={frame.shown ? 'Save Changes' : 'Add Note'}
      onCancel={() => {
        onClose();
        setOpen(false);
      }}
    >
      <Form.Item name="title" label="Title" rules={[{ required: true, message: 'This field is required' }]}>
        <Input />
      </Form.Item>
      <Form.Item name="body" label="Body">
        <Input />
      </Form.Item>
    </ModalForm>
  );
}

const render = (props: SampleProps) => renderScreen(<NoteForm {...props} />, { staff: staffMember('admin') });
const button = (dialog: HTMLElement, name: string | RegExp) => within(dialog).getByRole('button', { name });

describe('ModalForm: the one frame of the product forms', () => {
  it('opens filled, checks its rules, and submits the valid values', async () => {
    const save = jest.fn(async (values: NoteValues) => ({ id: 1, title: values.title, version: 1 }));
    const onSaved = jest.fn();
    const { user } = render({ save, onSaved });
    const dialog = await findDialog('Add Note');
    const title = within(dialog).getByLabelText('Title');
    await waitFor(() => expect(title).toHaveValue('Untitled'));

    await user.clear(title);
    await user.click(button(dialog, 'Add Note'));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();

    await user.type(title, 'Recall in May');
    // Enter in a field submits too.
    await user.type(within(dialog).getByLabelText('Body'), 'Call the patient{Enter}');
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith({ id: 1, title: 'Recall in May', version: 1 }));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith({ title: 'Recall in May', body: 'Call the patient' }, undefined);
  });

  it("shows a refusal's field error beside its field and the rest in the banner", async () => {
    const save = jest.fn().mockRejectedValueOnce(
      new ApiError('Notes are closed for the day', 400, [
        { field: 'title', message: 'A note with this title exists' },
        { field: 'clinic', message: 'Closed today' },
      ]),
    );
    const { user } = render({ save });
    const dialog = await findDialog('Add Note');
    await user.click(button(dialog, 'Add Note'));

    const banner = await within(dialog).findByRole('alert');
    expect(banner).toHaveTextContent('Notes are closed for the day');
    const titleItem = within(dialog).getByLabelText('Title').closest('.ant-form-item') as HTMLElement;
    expect(within(titleItem).getByText('A note with this title exists')).toBeInTheDocument();
    expect(within(banner).queryByText('A note with this title exists')).not.toBeInTheDocument();

    // The banner's × dismisses it; a refusal naming only the form's fields needs no banner.
    await user.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    save.mockRejectedValueOnce(
      new ApiError('Invalid title', 400, [{ field: 'title', message: 'The title is too long' }]),
    );
    await user.click(button(dialog, 'Add Note'));
    expect(await within(dialog).findByText('The title is too long')).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('Cancel closes the dialog without saving', async () => {
    const save = jest.fn();
    const onClose = jest.fn();
    const { user } = render({ save, onClose });
    const dialog = await findDialog('Add Note');
    await user.click(button(dialog, 'Cancel'));
    expect(onClose).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(save).not.toHaveBeenCalled();
  });

  it('Save is pending while saving: a second click saves nothing more', async () => {
    let answer: (note: Note) => void = () => {};
    const save = jest.fn(
      () =>
        new Promise<Note>((resolve) => {
          answer = resolve;
        }),
    );
    const onSaved = jest.fn();
    const { user } = render({ save, onSaved });
    const dialog = await findDialog('Add Note');
    // While saving, the button's name starts with its spinner's.
    const addButton = () => button(dialog, /Add Note$/);
    await user.click(addButton());

    await waitFor(() => expect(addButton()).toHaveClass('ant-btn-loading'));
    await user.click(addButton());
    expect(save).toHaveBeenCalledTimes(1);
    answer({ id: 1, title: 'Untitled', version: 1 });
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(addButton()).not.toHaveClass('ant-btn-loading'));
  });

  it('an edit names its version; a stale Save (412) shows the alert above the buttons, and Save mine over it re-sends', async () => {
    const note: Note = { id: 4, title: 'Recall', version: 2 };
    const theirs: Note = { ...note, title: 'Recall soon', version: 3 };
    const save = jest
      .fn()
      .mockRejectedValueOnce(
        new ApiError(STALE_WRITE_MESSAGE, 412, [], { message: STALE_WRITE_MESSAGE, current: theirs }),
      )
      .mockResolvedValueOnce({ ...theirs, version: 4 });
    const onSaved = jest.fn();
    const { user } = render({ save, onSaved, note });
    const dialog = await findDialog('Edit Note');
    await waitFor(() => expect(within(dialog).getByLabelText('Title')).toHaveValue('Recall'));
    await user.click(button(dialog, 'Save Changes'));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    expect(onSaved).not.toHaveBeenCalled();
    await user.click(within(alert).getByRole('button', { name: 'Save mine over it' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(save.mock.calls.map((call) => call[1])).toEqual([2, 3]);
  });
});
