import { screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '../api/client';
import { renderScreen } from '../testing';
import { Button } from './index';
import { useActionError, useRowAction, useRowDelete } from './rowDelete';

interface Thing {
  id: number;
  name: string;
  version: number;
}
const BOLT: Thing = { id: 7, name: 'Bolt', version: 3 };

function DeleteButton({
  remove,
  refresh = () => {},
  onDeleted,
}: {
  remove: (id: number, version: number) => Promise<unknown>;
  refresh?: () => void;
  onDeleted?: () => void;
}) {
  const actionError = useActionError(refresh);
  const askDelete = useRowDelete<Thing>({
    remove,
    question: (thing) => ({ title: `Delete ${thing.name}?`, content: 'It cannot be undone.' }),
    refused: actionError.refused,
    refresh,
    onDeleted,
  });
  return (
    <>
      {actionError.message && <p role="alert">{actionError.message}</p>}
      <Button onClick={() => askDelete(BOLT)}>Delete Bolt</Button>
    </>
  );
}

describe('useRowDelete: a list row deleted once asked', () => {
  it('asks, deletes the row at the version shown, says so and reads the list again', async () => {
    const remove = jest.fn().mockResolvedValue({ message: 'ok' });
    const refresh = jest.fn();
    const onDeleted = jest.fn();
    const { user } = renderScreen(<DeleteButton remove={remove} refresh={refresh} onDeleted={onDeleted} />);
    await user.click(screen.getByRole('button', { name: 'Delete Bolt' }));
    const question = await screen.findByRole('dialog');
    expect(within(question).getAllByText('Delete Bolt?').length).toBeGreaterThan(0);
    expect(within(question).getByText('It cannot be undone.')).toBeInTheDocument();
    expect(remove).not.toHaveBeenCalled();
    await user.click(within(question).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Bolt was deleted')).toBeInTheDocument();
    expect(remove).toHaveBeenCalledWith(7, 3);
    expect(onDeleted).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('puts a refusal in the action-error banner and reads a row changed meanwhile again', async () => {
    const remove = jest.fn().mockRejectedValue(new ApiError('Bolt was changed meanwhile', 412));
    const refresh = jest.fn();
    const { user } = renderScreen(<DeleteButton remove={remove} refresh={refresh} />);
    await user.click(screen.getByRole('button', { name: 'Delete Bolt' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Bolt was changed meanwhile');
    await waitFor(() => expect(refresh).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Bolt was deleted')).not.toBeInTheDocument();
  });
});

function SwitchOff({ run, refresh }: { run: (thing: Thing) => Promise<Thing>; refresh: () => void }) {
  const actionError = useActionError(refresh);
  const switchOff = useRowAction({
    run,
    done: (saved: Thing) => `${saved.name} is off`,
    actionError,
    refresh,
  });
  return (
    <>
      {actionError.message && <p>Refused: {actionError.message}</p>}
      <Button loading={switchOff.isPending} onClick={() => switchOff.mutate(BOLT)}>
        Switch Bolt off
      </Button>
    </>
  );
}

describe('useRowAction: a row action done at once', () => {
  it('sends it for the row as shown, says so and reads the list again', async () => {
    const run = jest.fn().mockResolvedValue({ ...BOLT, version: 4 });
    const refresh = jest.fn();
    const { user } = renderScreen(<SwitchOff run={run} refresh={refresh} />);
    await user.click(screen.getByRole('button', { name: 'Switch Bolt off' }));
    expect(await screen.findByText('Bolt is off')).toBeInTheDocument();
    expect(run).toHaveBeenCalledWith(BOLT);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(/Refused/)).not.toBeInTheDocument();
  });

  it('puts a refusal in the banner, reads a row gone meanwhile again, and says nothing was done', async () => {
    const run = jest.fn().mockRejectedValue(new ApiError('Bolt was deleted meanwhile', 404));
    const refresh = jest.fn();
    const { user } = renderScreen(<SwitchOff run={run} refresh={refresh} />);
    await user.click(screen.getByRole('button', { name: 'Switch Bolt off' }));
    expect(await screen.findByText('Refused: Bolt was deleted meanwhile')).toBeInTheDocument();
    await waitFor(() => expect(refresh).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Bolt is off')).not.toBeInTheDocument();
  });
});
