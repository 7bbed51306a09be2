/** The benches' figures from their samples. */

/** The value at quantile `q` (0-1) of ascending `sorted`; NaN when there is none. */
export const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** The middle value (the upper one of an even count). */
export const median = (values) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
