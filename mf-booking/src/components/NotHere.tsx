import { ONLINE_BOOKING_NOT_HERE } from '@dental/shared/domain';

/** An unknown page, an unknown clinic and a clinic with online booking off all read the same. */
export function NotHere({ message = ONLINE_BOOKING_NOT_HERE }: { message?: string }) {
  return (
    <main className="booking-page booking-centered">
      <h1>{message}</h1>
      <p>Please call the clinic to book or change a visit.</p>
    </main>
  );
}
