import { publicPageOf } from '@dental/shared/domain';
import { lazy, Suspense } from 'react';
import { NotHere } from './components/NotHere';
import './booking.css';

const BookingPage = lazy(() => import('./pages/BookingPage'));
const ManagePage = lazy(() => import('./pages/ManagePage'));

/** The patients' pages (the `./public` entry): a clinic's booking page or a visit's manage page, by path. */
export default function PublicPages({ pathname }: { pathname: string }) {
  const page = publicPageOf(pathname);
  return (
    <Suspense fallback={<p className="booking-loading">Loading…</p>}>
      {page.page === 'book' && <BookingPage slug={page.slug} />}
      {page.page === 'manage' && <ManagePage token={page.token} />}
      {page.page === 'none' && <NotHere />}
    </Suspense>
  );
}
