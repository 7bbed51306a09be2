/**
 * The start of every visit read of every module (the appointments list, a visit, the calendar's
 * month): a visit's write anywhere refreshes them all. The reads themselves are each module's own.
 */
export const appointmentQueries = {
  key: ['appointments'] as const,
};
