import { z } from 'zod';
import { MODULE_IDS } from './modules';

/**
 * A module's releases (docs/architecture.md, Module releases): each build a team publishes is kept
 * under `/modules/<id>/<release>/`, never overwritten, and the platform points the default, or one
 * clinic, at one of them. Rolling back is pointing back.
 */

/** A release's name: the module's version and the start of its build's content hash, e.g. `1.0.0-3f9a0c1b2d4e`. */
export const RELEASE_NAME_PATTERN = /^[0-9A-Za-z.+-]{1,40}-[0-9a-f]{12}$/;

/** One published build of a module. */
export const moduleReleaseSchema = z.object({
  module_id: z.enum(MODULE_IDS),
  release: z.string(),
  version: z.string(),
  built_at: z.string(),
  commit: z.string().nullable(),
  /** What the build needs of each shared package (its `requiredVersion`), e.g. `{"@dental/shared": "^2.1.0"}`. */
  shared: z.record(z.string(), z.string()),
  /** Subresource Integrity of the release's entry script (`remoteEntry.js`): `sha384-…`. */
  integrity: z.string(),
  published_at: z.string(),
  published_by: z.string(),
});
export type ModuleRelease = z.infer<typeof moduleReleaseSchema>;

export const MODULE_RELEASE_ACTIONS = ['published', 'pointed', 'unpointed'] as const;
export type ModuleReleaseAction = (typeof MODULE_RELEASE_ACTIONS)[number];

/** A publish, or a pointer moved for the default or one clinic: the releases' history, newest first. */
export const moduleReleaseEventSchema = z.object({
  id: z.number().int(),
  module_id: z.enum(MODULE_IDS),
  release: z.string(),
  action: z.enum(MODULE_RELEASE_ACTIONS),
  /** The clinic pointed (its slug); null for the default and for a publish. */
  clinic: z.string().nullable(),
  actor: z.string(),
  at: z.string(),
});
export type ModuleReleaseEvent = z.infer<typeof moduleReleaseEventSchema>;

/** The build a publish sends: each file of the module's `dist/`, base64. */
export const modulePublishSchema = z
  .object({
    version: z
      .string()
      .min(1)
      .max(40)
      .regex(/^[0-9A-Za-z.+-]+$/, 'version is letters, digits, dots, plus or minus'),
    commit: z.string().max(64).nullable().default(null),
    built_at: z.string().datetime({ offset: true }),
    files: z
      .array(
        z
          .object({
            path: z
              .string()
              .min(1)
              .max(200)
              .regex(/^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9_./-]*$/, 'a file path is relative, without ..'),
            content: z.string().max(20_000_000),
          })
          .strict(),
      )
      .min(1)
      .max(2000),
  })
  .strict();
export type ModulePublish = z.input<typeof modulePublishSchema>;

/** Points the default (`clinic: null`) or one clinic (its slug) at a release of the module. */
export const modulePointSchema = z
  .object({
    release: z.string().regex(RELEASE_NAME_PATTERN, 'release names a published release'),
    clinic: z.string().min(1).max(100).nullable(),
  })
  .strict();
export type ModulePoint = z.infer<typeof modulePointSchema>;

/** What the Modules page shows of a module's releases for the caller's clinic. */
export const moduleReleasesAnswerSchema = z.object({
  /** The release the default points at, and this clinic's own (null: it follows the default). */
  default_release: z.string().nullable(),
  clinic_release: z.string().nullable(),
  releases: z.array(moduleReleaseSchema),
  /** The default's and this clinic's history, newest first. */
  events: z.array(moduleReleaseEventSchema),
});
export type ModuleReleasesAnswer = z.infer<typeof moduleReleasesAnswerSchema>;
