import { screen, waitFor, within } from '@testing-library/react';
import { useRef } from 'react';
import { STALE_WRITE_MESSAGE } from '../domain/liveDesk';
import { createFakeLiveEvents, renderScreen, staffMember } from '../testing';
import { useEditConflict } from './EditConflict';

interface Note {
  id: number;
  title: string;
  version: number;
}
const NOTE: Note = { id: 4, title: 'Recall', version: 2 };

/**
 * A form that follows its record, its Save a plain button (no antd class): the alert finds Save
 * only through the ref the form hands it.
 */
function NoteEditor({ load, saveDisabled = false }: { load: () => Promise<Note>; saveDisabled?: boolean }) {
  const saveButton = useRef<HTMLButtonElement>(null);
  const conflict = useEditConflict({
    resource: 'patient',
    open: true,
    record: NOTE,
    load,
    resave: () => {},
    saveButton,
  });
  return (
    <section>
      <p>Showing {conflict.shown?.title}</p>
      {conflict.alert}
      <button type="button" className="primary">
        Another button
      </button>
      <button type="button" ref={saveButton} disabled={saveDisabled}>
        Save note
      </button>
    </section>
  );
}

function renderEditor(load: () => Promise<Note>, saveDisabled?: boolean) {
  const events = createFakeLiveEvents();
  const view = renderScreen(<NoteEditor load={load} saveDisabled={saveDisabled} />, {
    staff: staffMember('admin'),
    events,
  });
  return { ...view, events };
}

describe("useEditConflict: focus after the alert's choice", () => {
  it("goes to the form's Save handed by ref once 'Keep mine' closes the alert", async () => {
    const load = jest.fn(async () => ({ ...NOTE, title: 'Recall soon', version: 3 }));
    const { user, events } = renderEditor(load);
    events.emit({ resource: 'patient', id: 4, action: 'updated', by: 2 });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(STALE_WRITE_MESSAGE);
    await user.click(within(alert).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Save note' })).toHaveFocus();
    expect(screen.getByText('Showing Recall')).toBeInTheDocument();
  });

  it("goes there after 'Load theirs' too, the form now showing theirs", async () => {
    const load = jest.fn(async () => ({ ...NOTE, title: 'Recall soon', version: 3 }));
    const { user, events } = renderEditor(load);
    events.emit({ resource: 'patient', id: 4, action: 'updated', by: 2 });
    const alert = await screen.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Load theirs' }));
    expect(await screen.findByText('Showing Recall soon')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save note' })).toHaveFocus());
  });

  it('leaves a disabled Save unfocused', async () => {
    const load = jest.fn(async () => ({ ...NOTE, title: 'Recall soon', version: 3 }));
    const { user, events } = renderEditor(load, true);
    events.emit({ resource: 'patient', id: 4, action: 'updated', by: 2 });
    const alert = await screen.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Save note' })).not.toHaveFocus();
  });
});
