import { z } from 'zod';

/** A visit's place in its series, as every appointment answer carries it (null outside a series). */
export const appointmentSeriesPlaceSchema = z.object({
  id: z.number().int(),
  /** 1-based, among the series' visits still on record, in booking order. */
  position: z.number().int(),
  size: z.number().int(),
});
export type AppointmentSeriesPlace = z.infer<typeof appointmentSeriesPlaceSchema>;

/** "Series 3 of 6", as the lists show a visit of a series. */
export const seriesPlaceText = (place: AppointmentSeriesPlace) => `Series ${place.position} of ${place.size}`;
