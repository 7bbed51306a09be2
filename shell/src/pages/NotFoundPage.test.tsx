import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { NotFoundPage } from './NotFoundPage';

const renderAt = (path: string) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<h1>Dashboard home</h1>} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </MemoryRouter>,
  );

describe('NotFoundPage (docs/product.md, Screens: any other path)', () => {
  it('shows the path that was asked for', () => {
    renderAt('/no/such/screen');
    expect(screen.getByText('Page not found')).toBeInTheDocument();
    expect(screen.getByTestId('not-found-path')).toHaveTextContent(/^\/no\/such\/screen$/);
    expect(screen.getByText(/Nothing is at/)).toHaveTextContent('Nothing is at /no/such/screen.');
  });

  it('shows only the path, not the query string or hash', () => {
    renderAt('/reports/2026?month=1#top');
    expect(screen.getByTestId('not-found-path')).toHaveTextContent(/^\/reports\/2026$/);
  });

  it('gives a hint about routing', () => {
    renderAt('/billing');
    expect(screen.getByText(/Check the address, or use the sidebar/)).toBeInTheDocument();
    expect(screen.getByText(/each area of the app has its own route/)).toBeInTheDocument();
  });

  it('links to the dashboard, and the link works', async () => {
    const user = userEvent.setup();
    renderAt('/billing');
    const link = screen.getByRole('link', { name: 'Go to Dashboard' });
    expect(link).toHaveAttribute('href', '/');
    await user.click(link);
    expect(screen.getByRole('heading', { name: 'Dashboard home' })).toBeInTheDocument();
    expect(screen.queryByText('Page not found')).not.toBeInTheDocument();
  });

  it('shows a hostile path as text, never as markup', () => {
    const { container } = renderAt('/<img src=x onerror=alert(1)>');
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('not-found-path').textContent).toContain('onerror=alert(1)');
  });
});
