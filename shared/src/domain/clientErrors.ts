import { z } from 'zod';
import { MODULE_IDS } from './modules';

/**
 * What a staff browser reports of a module that failed (docs/architecture.md, Module releases): its
 * loading (`load`), a screen's code (`screen`) or drawing a screen (`render`).
 */
export const CLIENT_ERRORS_URL = '/api/client-errors';
export const CLIENT_ERROR_PHASES = ['load', 'screen', 'render'] as const;
export type ClientErrorPhase = (typeof CLIENT_ERROR_PHASES)[number];
/** How far back the Modules page counts failures. */
export const CLIENT_ERRORS_WINDOW_HOURS = 24;

export const clientErrorSchema = z
  .object({
    module: z.enum(MODULE_IDS),
    release: z.string().max(60).nullable(),
    phase: z.enum(CLIENT_ERROR_PHASES),
    message: z.string().min(1).max(500),
  })
  .strict();
export type ClientErrorReport = z.infer<typeof clientErrorSchema>;

/** The failures each module had in this clinic's browsers over the last CLIENT_ERRORS_WINDOW_HOURS. */
export const clientErrorCountsSchema = z.object({
  data: z.array(z.object({ module: z.enum(MODULE_IDS), count: z.number().int(), last_at: z.string() })),
});
export type ClientErrorCounts = z.infer<typeof clientErrorCountsSchema>;
