import {
  type ApiError,
  type Appointment,
  type AppointmentWriteRequest,
  occurrenceIndexOf,
  type RepeatRule,
} from '@dental/shared';
import { useRef, useState } from 'react';
import { bookSeries, checkSeries } from '../api/appointments';
import { chosenVisits, type ReviewedVisit, reviewOf, SeriesReview, UNDECIDED_MESSAGE } from './SeriesFields';

/**
 * The Save of a repeating booking, in two steps: the first checks every visit of the rule and shows
 * them (each free, or why not with Move and Skip); the next books the visits as chosen, all or none.
 * Any change to the booking makes the check stale (`reset`), and the next Save checks again.
 */
export function useSeriesBooking() {
  const [review, setReview] = useState<ReviewedVisit[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  /** The review's index of each visit sent with the last booking, to find the one refused. */
  const sent = useRef<number[]>([]);

  const reset = () => {
    setReview(null);
    setProblem(null);
  };

  /** Answers the first visit booked, or null while the series waits for staff to review it. */
  const save = async (visit: AppointmentWriteRequest, repeat: RepeatRule): Promise<Appointment | null> => {
    setProblem(null);
    if (!review) {
      setReview(reviewOf(await checkSeries({ visit, repeat })));
      return null;
    }
    if (review.some((item) => item.choice === 'undecided')) {
      setProblem(UNDECIDED_MESSAGE);
      return null;
    }
    const chosen = chosenVisits(review);
    sent.current = chosen.map((each) => each.reviewIndex);
    const booked = await bookSeries({ visit, repeat, occurrences: chosen.map((each) => each.visit) });
    return booked.data[0] ?? null;
  };

  /** A refusal of one visit of the series marks it in the review, to be skipped (or the series checked again). */
  const markRefused = (error: ApiError) => {
    if (!review) return;
    for (const { field, message } of error.fieldErrors) {
      const index = occurrenceIndexOf(field);
      const reviewIndex = index === null ? undefined : sent.current[index];
      if (reviewIndex === undefined) continue;
      setReview(
        review.map((item, at) =>
          at === reviewIndex ? { ...item, message, nearest: null, choice: 'undecided' } : item,
        ),
      );
    }
  };

  const bookable = review ? chosenVisits(review).length : 0;
  const node = review ? <SeriesReview review={review} onChange={setReview} problem={problem} /> : null;
  return { review, bookable, save, reset, markRefused, node };
}
