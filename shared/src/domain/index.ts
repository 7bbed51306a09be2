/** Pure-TypeScript domain rules: imported by the browser and by the server alike. */
export * from './appointments';
export * from './auth';
export * from './availability';
export * from './backup';
export * from './calendar';
export * from './constants';
export * from './dashboard';
export * from './dentists';
export * from './errors';
export * from './modules';
export * from './outbox';
export * from './patients';
export * from './roles';
export * from './settings';
export * from './users';
export * from './validation';
export * from './visitTime';
