import { test as base } from '@playwright/test';
import { APP_URLS } from '../playwright.config';
import { type Journey, journeyOf } from './journeyData';

/**
 * Playwright's test, on the app server of this worker (playwright.config.ts starts one a worker):
 * journeys of different workers run side by side without meeting each other's data. `journey` makes
 * the journey's own dentist, patients and dentist account (journeyData.ts): the journeys of one worker
 * share its database, and none sees another's bookings.
 */
export const test = base.extend<{ journey: Journey }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; it has none.
  baseURL: async ({}, use, testInfo) => {
    await use(APP_URLS[testInfo.parallelIndex % APP_URLS.length]);
  },
  // A request context of the journey's own (its own cookies): the page's sign-in is the journey's.
  journey: async ({ request }, use, testInfo) => {
    const { journey, cleanUp } = journeyOf(request, testInfo);
    await use(journey);
    await cleanUp();
  },
});

export { expect, type Locator, type Page } from '@playwright/test';
