import { WAITLIST_ENTRY_GONE, WAITLIST_OTHER_PATIENT } from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client';
import { Conflict, InvalidValue } from '../../domain/errors';
import { type Actor, recordActorAudit } from '../actorAudit';

/**
 * A visit booked from the waitlist takes its entry off, in the booking's transaction: the entry must
 * be the clinic's and the booked patient's, else the booking is refused and nothing is written.
 */
export async function takeOffWaitlist(
  tx: Transaction,
  actor: Actor,
  entryId: number,
  patientId: number,
  appointmentId: number,
): Promise<void> {
  const { rows } = await tx.execute(sql`
    select patient_id from waitlist_entries where clinic_id = ${actor.clinicId} and id = ${entryId} for update`);
  const [held] = rows as Array<{ patient_id: number }>;
  if (!held)
    throw new Conflict(WAITLIST_ENTRY_GONE, [{ field: 'waitlist_entry_id', message: WAITLIST_ENTRY_GONE }]);
  if (held.patient_id !== patientId)
    throw new InvalidValue(WAITLIST_OTHER_PATIENT, [
      { field: 'waitlist_entry_id', message: WAITLIST_OTHER_PATIENT },
    ]);
  await tx.execute(sql`delete from waitlist_entries where clinic_id = ${actor.clinicId} and id = ${entryId}`);
  await recordActorAudit(tx, actor, {
    action: 'delete',
    entity: 'waitlist',
    entityId: entryId,
    details: { booked_appointment: appointmentId },
  });
}
