import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BookingHost } from './BookingHost';
import './booking.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
createRoot(container).render(
  <StrictMode>
    <BookingHost pathname={window.location.pathname} />
  </StrictMode>,
);
