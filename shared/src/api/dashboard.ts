/**
 * The start of the shell's dashboard reads (docs/architecture.md, The shell): a module whose write
 * changes the day's figures (a visit, a dentist's name) refreshes them through this key.
 */
export const dashboardQueries = {
  key: ['dashboard'] as const,
};
