import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ListSearch } from './ListSearch';

describe('ListSearch: the search box of a list screen', () => {
  it('sends what is typed, trimmed, and keeps the space just typed', async () => {
    const user = userEvent.setup();
    const onSearch = jest.fn();
    const view = render(
      <ListSearch label="Search patients" placeholder="Search patients..." value="" onSearch={onSearch} />,
    );
    const box = screen.getByRole('searchbox', { name: 'Search patients' });
    expect(box).toHaveAttribute('placeholder', 'Search patients...');
    await user.type(box, 'mia ');
    expect(onSearch).toHaveBeenLastCalledWith('mia');
    // The URL catches up with the trimmed search: the box keeps the user's trailing space.
    view.rerender(
      <ListSearch label="Search patients" placeholder="Search patients..." value="mia" onSearch={onSearch} />,
    );
    expect(box).toHaveValue('mia ');
  });

  it('follows the URL when it changes from elsewhere (Back, a link)', () => {
    const view = render(<ListSearch label="Search" placeholder="" value="lee" onSearch={jest.fn()} />);
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('lee');
    view.rerender(<ListSearch label="Search" placeholder="" value="" onSearch={jest.fn()} />);
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  });
});
