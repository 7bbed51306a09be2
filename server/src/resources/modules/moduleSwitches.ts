import type { ModuleId } from '@dental/shared/domain';
import { and, eq } from 'drizzle-orm';
import type { Reader } from '../../db/client';
import { clinicModules } from '../../db/schema';

/** Each module's switch for a clinic, as its admin set it on the Modules page. */
export async function switchesOf(db: Reader, clinicId: number): Promise<Map<string, boolean>> {
  const rows = await db
    .select({ moduleId: clinicModules.moduleId, enabled: clinicModules.enabled })
    .from(clinicModules)
    .where(eq(clinicModules.clinicId, clinicId));
  return new Map(rows.map((row) => [row.moduleId, row.enabled]));
}

/** Whether a module is on for a clinic: one the clinic never switched is on. */
export async function moduleOn(db: Reader, clinicId: number, moduleId: ModuleId): Promise<boolean> {
  const [row] = await db
    .select({ enabled: clinicModules.enabled })
    .from(clinicModules)
    .where(and(eq(clinicModules.clinicId, clinicId), eq(clinicModules.moduleId, moduleId)));
  return row?.enabled ?? true;
}
