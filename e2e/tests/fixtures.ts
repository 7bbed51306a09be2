import { test as base } from '@playwright/test';
import { APP_URLS } from '../playwright.config';

/**
 * Playwright's test, on the app server of this worker (playwright.config.ts starts one a worker):
 * journeys of different workers run side by side without meeting each other's data.
 */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; it has none.
  baseURL: async ({}, use, testInfo) => {
    await use(APP_URLS[testInfo.parallelIndex % APP_URLS.length]);
  },
});

export { expect, type Locator, type Page } from '@playwright/test';
