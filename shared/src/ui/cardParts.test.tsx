import { screen } from '@testing-library/react';
import { renderScreen } from '../testing';
import { CardTitle, cardActions } from './cardParts';
import { Card } from './index';

describe('the parts of a card', () => {
  it("CardTitle and cardActions: the card's name and detail, its Edit and Delete named for it", async () => {
    const onEdit = jest.fn();
    const onDelete = jest.fn();
    const { user } = renderScreen(
      <Card
        title={<CardTitle name="Bolt" detail="M8, steel" />}
        actions={cardActions({ editLabel: 'Edit Bolt', deleteLabel: 'Delete Bolt', onEdit, onDelete })}
      />,
    );
    expect(screen.getByText('Bolt')).toBeInTheDocument();
    expect(screen.getByText('M8, steel')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit Bolt' }));
    expect(onEdit).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Delete Bolt' }));
    expect(onDelete).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Edit Bolt' })).toHaveTextContent('Edit');
    expect(screen.getByRole('button', { name: 'Delete Bolt' })).toHaveTextContent('Delete');
  });
});
