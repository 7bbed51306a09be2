/**
 * The start of every availability read (docs/product.md, Availability): a visit moved on the
 * calendar or booked at the desk refreshes the days it booked into.
 */
export const availabilityQueries = {
  key: ['availability'] as const,
};
