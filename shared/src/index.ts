/** Run-time shared API of the product: one instance for the shell and every module. */
export * from './api';
export * from './auth/authApi';
export * from './auth/authStore';
export * from './auth/storage';
export * from './domain';
export * from './moduleContract';
