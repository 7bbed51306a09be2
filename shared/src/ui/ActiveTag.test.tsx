import { render, screen } from '@testing-library/react';
import { ActiveTag } from './ActiveTag';

describe('ActiveTag: a record on or off, alike in every list', () => {
  it('is green when on and plain when off, in the words it is given', () => {
    render(
      <>
        <ActiveTag active>In service</ActiveTag>
        <ActiveTag active={false}>Inactive</ActiveTag>
      </>,
    );
    expect(screen.getByText('In service')).toHaveClass('ant-tag-green');
    expect(screen.getByText('Inactive')).not.toHaveClass('ant-tag-green');
  });
});
