import type {
  ModuleId,
  ModuleRelease,
  ModuleReleaseEvent,
  ModuleReleasesAnswer,
} from '@dental/shared/domain';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { recordAudit } from '../../db/auditLog';
import type { Database, Reader, Transaction } from '../../db/client';
import { clinics, modulePointers, moduleReleaseEvents, moduleReleases } from '../../db/schema';
import { NotFound } from '../../domain/errors';

/** The releases' data: what was published, where the default and each clinic point, and the history. */

export const RELEASE_NOT_FOUND = 'No such release of this module: publish it first';
export const CLINIC_NOT_FOUND = 'No clinic has this address';
/** How much of a module's history the Modules page shows. */
const RELEASES_SHOWN = 20;
const EVENTS_SHOWN = 50;

type ReleaseRow = typeof moduleReleases.$inferSelect;

const iso = (value: Date | string) => new Date(value).toISOString();

function toRelease(row: ReleaseRow): ModuleRelease {
  return {
    module_id: row.moduleId as ModuleId,
    release: row.release,
    version: row.version,
    built_at: iso(row.builtAt),
    commit: row.commit,
    shared: row.shared,
    integrity: row.integrity,
    published_at: iso(row.publishedAt),
    published_by: row.publishedBy,
  };
}

/** Records a stored build; publishing the same build again keeps the first record and says so again. */
export async function recordRelease(
  db: Database,
  release: Omit<ReleaseRow, 'publishedAt'>,
): Promise<ModuleRelease> {
  return db.transaction(async (tx) => {
    await tx.insert(moduleReleases).values(release).onConflictDoNothing();
    await tx.insert(moduleReleaseEvents).values({
      moduleId: release.moduleId,
      release: release.release,
      action: 'published',
      actor: release.publishedBy,
    });
    const [row] = await tx
      .select()
      .from(moduleReleases)
      .where(and(eq(moduleReleases.moduleId, release.moduleId), eq(moduleReleases.release, release.release)));
    if (!row) throw new NotFound(RELEASE_NOT_FOUND);
    return toRelease(row);
  });
}

/** The clinic at an address (its slug); null when none is there. */
export async function clinicIdOfSlug(db: Reader, slug: string): Promise<number | null> {
  const [clinic] = await db.select({ id: clinics.id }).from(clinics).where(eq(clinics.slug, slug));
  return clinic?.id ?? null;
}

async function clinicOfSlug(tx: Transaction, slug: string | null): Promise<number | null> {
  if (slug === null) return null;
  const clinicId = await clinicIdOfSlug(tx, slug);
  if (clinicId === null) throw new NotFound(CLINIC_NOT_FOUND);
  return clinicId;
}

const pointerOf = (moduleId: string, clinicId: number | null) =>
  and(
    eq(modulePointers.moduleId, moduleId),
    clinicId === null ? isNull(modulePointers.clinicId) : eq(modulePointers.clinicId, clinicId),
  );

/**
 * Points the default (`clinic` null) or one clinic at a release, in one statement: the pointer's
 * unique index makes two at once land one after the other. A clinic's move is on its audit trail too.
 */
export async function pointAt(
  db: Database,
  moduleId: ModuleId,
  release: string,
  clinic: string | null,
  actor: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const clinicId = await clinicOfSlug(tx, clinic);
    const [known] = await tx
      .select({ release: moduleReleases.release })
      .from(moduleReleases)
      .where(and(eq(moduleReleases.moduleId, moduleId), eq(moduleReleases.release, release)));
    if (!known) throw new NotFound(RELEASE_NOT_FOUND);
    await tx.execute(sql`
      insert into module_pointers (module_id, clinic_id, release) values (${moduleId}, ${clinicId}, ${release})
      on conflict (module_id, (coalesce(clinic_id, 0)))
      do update set release = excluded.release, pointed_at = now()`);
    await tx.insert(moduleReleaseEvents).values({ moduleId, release, action: 'pointed', clinicId, actor });
    if (clinicId !== null)
      await recordAudit(tx, {
        clinicId,
        userId: null,
        action: 'module_release_pointed',
        entity: 'module',
        entityId: moduleId,
        details: { release, by: actor },
      });
  });
}

/** A clinic follows the default again: its own pointer goes (nothing when it had none). */
export async function followDefault(
  db: Database,
  moduleId: ModuleId,
  clinic: string,
  actor: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const clinicId = await clinicOfSlug(tx, clinic);
    const [left] = await tx.delete(modulePointers).where(pointerOf(moduleId, clinicId)).returning();
    if (!left || clinicId === null) return;
    await tx
      .insert(moduleReleaseEvents)
      .values({ moduleId, release: left.release, action: 'unpointed', clinicId, actor });
    await recordAudit(tx, {
      clinicId,
      userId: null,
      action: 'module_release_unpointed',
      entity: 'module',
      entityId: moduleId,
      details: { release: left.release, by: actor },
    });
  });
}

/** The release each module runs for a clinic: the clinic's own pointer, else the default's. */
export async function releasesRunBy(
  db: Reader,
  clinicId: number | null,
): Promise<Map<string, { release: string; version: string; integrity: string }>> {
  const result = await db.execute(sql`
    select distinct on (p.module_id) p.module_id, r.release, r.version, r.integrity
    from module_pointers p
    join module_releases r on r.module_id = p.module_id and r.release = p.release
    where p.clinic_id is null ${clinicId === null ? sql`` : sql`or p.clinic_id = ${clinicId}`}
    order by p.module_id, p.clinic_id nulls last`);
  const rows = result.rows as Array<{
    module_id: string;
    release: string;
    version: string;
    integrity: string;
  }>;
  return new Map(rows.map((row) => [row.module_id, row]));
}

/** A module's releases as the Modules page shows them to a clinic's admin. */
export async function releasesOf(
  db: Reader,
  moduleId: ModuleId,
  clinicId: number,
): Promise<ModuleReleasesAnswer> {
  const releases = await db
    .select()
    .from(moduleReleases)
    .where(eq(moduleReleases.moduleId, moduleId))
    .orderBy(desc(moduleReleases.publishedAt), desc(moduleReleases.release))
    .limit(RELEASES_SHOWN);
  const pointers = await db
    .select({ clinicId: modulePointers.clinicId, release: modulePointers.release })
    .from(modulePointers)
    .where(
      and(
        eq(modulePointers.moduleId, moduleId),
        or(isNull(modulePointers.clinicId), eq(modulePointers.clinicId, clinicId)),
      ),
    );
  const events = await db
    .select({
      id: moduleReleaseEvents.id,
      release: moduleReleaseEvents.release,
      action: moduleReleaseEvents.action,
      clinic: clinics.slug,
      actor: moduleReleaseEvents.actor,
      at: moduleReleaseEvents.at,
    })
    .from(moduleReleaseEvents)
    .leftJoin(clinics, eq(clinics.id, moduleReleaseEvents.clinicId))
    .where(
      and(
        eq(moduleReleaseEvents.moduleId, moduleId),
        or(isNull(moduleReleaseEvents.clinicId), eq(moduleReleaseEvents.clinicId, clinicId)),
      ),
    )
    .orderBy(desc(moduleReleaseEvents.at), desc(moduleReleaseEvents.id))
    .limit(EVENTS_SHOWN);
  return {
    default_release: pointers.find((pointer) => pointer.clinicId === null)?.release ?? null,
    clinic_release: pointers.find((pointer) => pointer.clinicId === clinicId)?.release ?? null,
    releases: releases.map(toRelease),
    events: events.map(
      (event): ModuleReleaseEvent => ({
        id: event.id,
        module_id: moduleId,
        release: event.release,
        action: event.action as ModuleReleaseEvent['action'],
        clinic: event.clinic,
        actor: event.actor,
        at: iso(event.at),
      }),
    ),
  };
}

/**
 * Releases no pointer names and none has named for `graceDays`, published longer ago than that: a tab
 * opened on one has been reloaded since. Their records go (the history keeps their events); the caller
 * removes their folders.
 */
export async function pruneReleases(
  db: Database,
  graceDays: number,
): Promise<Array<{ moduleId: string; release: string }>> {
  const result = await db.execute(sql`
    delete from module_releases r
    where r.published_at < now() - make_interval(days => ${graceDays})
      and not exists (select 1 from module_pointers p where p.module_id = r.module_id and p.release = r.release)
      and not exists (
        select 1 from module_release_events e
        where e.module_id = r.module_id and e.release = r.release and e.action in ('pointed', 'unpointed')
          and e.at >= now() - make_interval(days => ${graceDays}))
    returning r.module_id, r.release`);
  return (result.rows as Array<{ module_id: string; release: string }>).map((row) => ({
    moduleId: row.module_id,
    release: row.release,
  }));
}
