import { type DentistWorkingHours, WEEKDAYS } from '@dental/shared';

/** Weekday names in `WEEKDAYS` order (Monday first, as `working_days` numbers them). */
export const DAY_LABELS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** 'Mon-Fri 09:00-17:00 · Sat 09:00-13:00': the days worked, runs of days with equal hours joined. */
export function workingHoursSummary(hours: DentistWorkingHours): string {
  const runs: Array<{ first: string; last: string; hours: string }> = [];
  WEEKDAYS.forEach((weekday, index) => {
    const day = hours[weekday];
    const name = (DAY_LABELS[index] ?? weekday).slice(0, 3);
    if (day.off) return;
    const text = `${day.start}-${day.end}`;
    const previous = runs.at(-1);
    const follows = index > 0 && !hours[WEEKDAYS[index - 1] ?? weekday].off;
    if (previous && follows && previous.hours === text) previous.last = name;
    else runs.push({ first: name, last: name, hours: text });
  });
  if (runs.length === 0) return 'No working days';
  return runs
    .map((run) => `${run.first === run.last ? run.first : `${run.first}-${run.last}`} ${run.hours}`)
    .join(' · ');
}
