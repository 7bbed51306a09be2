import { RetryPlugin } from '@module-federation/retry-plugin';

/** Further tries of a module's manifest or entry script before its area says it could not be loaded. */
export const MODULE_LOAD_RETRIES = 2;
/** The pause before each further try of the entry script; the manifest's is the plugin's own second. */
const SCRIPT_RETRY_DELAY_MS = 1_000;

/**
 * The federation runtime's retry plugin: a module whose manifest (`fetch`) or entry script (`script`)
 * fails to load is asked again a few times before the shell shows the failure and its Retry button
 * (docs/architecture.md, The shell). The plugin hooks into the runtime's `fetch`, `loadEntryError` and
 * `getModuleFactory`, which @module-federation/enhanced 2.9's runtime still calls the same way.
 */
export const moduleRetryPlugin = () =>
  RetryPlugin({
    fetch: { retryTimes: MODULE_LOAD_RETRIES },
    script: { retryTimes: MODULE_LOAD_RETRIES, retryDelay: SCRIPT_RETRY_DELAY_MS },
  });
