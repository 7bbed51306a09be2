/**
 * The API entry: the one client, and the reads more than one module makes, each a `queryOptions`
 * factory whose `key` is the only place its query key is written (docs/architecture.md, Shared).
 */
export * from './appointments';
export * from './availability';
export * from './chairs';
export * from './client';
export * from './dashboard';
export * from './dentistChoices';
export * from './freeTimes';
export * from './patients';
export * from './recallTypes';
export * from './settings';
export * from './waitlist';
