import { z } from 'zod';
import { dateString } from './validation';

/**
 * Times held on the booking page (docs/product.md, Online booking): for five minutes, or as long
 * as the patient's code, the desk cannot book them either, and its Day view shows them.
 */
export const heldTimesQuerySchema = z.object({ date: dateString }).strict();

export const heldTimeSchema = z.object({
  id: z.number().int(),
  date: z.string(),
  time: z.string(),
  end_time: z.string(),
  duration: z.number().int(),
  treatment: z.string(),
  dentist_id: z.number().int(),
  dentist_name: z.string(),
  chair_id: z.number().int(),
  /** When the hold lets the time go by itself, unless the patient books it first. */
  expires_at: z.string(),
});
export type HeldTime = z.infer<typeof heldTimeSchema>;

export const heldTimesSchema = z.object({ data: z.array(heldTimeSchema) });
export type HeldTimes = z.infer<typeof heldTimesSchema>;

/** Whole minutes a hold has left, at least 1 while it lasts: 'Held online, 4 min left'. */
export const heldMinutesLeft = (expiresAt: string, now: number): number =>
  Math.max(1, Math.ceil((Date.parse(expiresAt) - now) / 60_000));
export const heldOnlineLabel = (minutesLeft: number) => `Held online, ${minutesLeft} min left`;

/**
 * What a visit the patient booked on the clinic's booking page says of it (docs/product.md, Online
 * booking), whether the patient confirmed it themself; null for a visit booked at the desk.
 */
export const bookedOnlineLabel = (visit: {
  source?: 'desk' | 'online';
  confirmed_by?: 'desk' | 'patient' | null;
}): string | null =>
  visit.source !== 'online'
    ? null
    : visit.confirmed_by === 'patient'
      ? 'Booked and confirmed by the patient online'
      : 'Booked by the patient online';
