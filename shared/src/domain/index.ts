/** Pure-TypeScript domain rules: imported by the browser and by the server alike. */
export * from './auth';
export * from './constants';
export * from './errors';
export * from './modules';
export * from './roles';
export * from './validation';
