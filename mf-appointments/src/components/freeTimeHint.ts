import { type FreeTimes, VISIT_MINUTES_MAX, VISIT_MINUTES_MIN, VISIT_MINUTES_STEP } from '@dental/shared';
import { formatDay } from '@dental/shared/kit';

/** What the Time field's hint is said from. */
export interface FreeTimeHintFacts {
  /** 'Book outside open hours' is ticked: any time may be typed. */
  outsideHours: boolean;
  dentistId: number | null;
  /** A whole day (`YYYY-MM-DD`); null while none is given. */
  date: string | null;
  /** A length the free times can be asked for; null while none is (or one off the grid). */
  length: number | null;
  /** A length was given, though not one the free times can be asked for. */
  lengthGiven: boolean;
  /** The dentist's free times could not be read. */
  readFailed: boolean;
  /** The dentist's free times for the dentist, day and length chosen; null until read. */
  offered: Pick<FreeTimes, 'date' | 'times' | 'message'> | null;
  /** The chosen dentist's name, once the dentists are read. */
  dentistName?: string;
}

/**
 * The hint under Time: what is still missing before free times can be offered, that they are being
 * read (or could not be), or how many there are (docs/product.md, Appointments).
 */
export function freeTimeHint(facts: FreeTimeHintFacts): string {
  const { outsideHours, dentistId, date, length, lengthGiven, readFailed, offered, dentistName } = facts;
  if (outsideHours)
    return 'Any time the dentist and the patient have free: the visit is marked as outside open hours.';
  if (dentistId === null || date === null) return 'Choose the dentist and date to see the free times.';
  if (length === null && lengthGiven)
    return `Give a length of ${VISIT_MINUTES_MIN} to ${VISIT_MINUTES_MAX} minutes in steps of ${VISIT_MINUTES_STEP} to see the free times.`;
  if (length === null) return 'Choose the treatment (or give the length) to see the free times.';
  if (readFailed) return "The dentist's free times could not be read.";
  if (!offered) return "Reading the dentist's free times...";
  const count = offered.times.length;
  if (count === 0) return `${offered.message ?? 'No free time on this day'}: choose another day or dentist.`;
  return `${count} start ${count === 1 ? 'time' : 'times'} free for ${dentistName ?? 'this dentist'} on ${formatDay(offered.date)} for ${length} minutes.`;
}
