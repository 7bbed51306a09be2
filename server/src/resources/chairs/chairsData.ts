import {
  CHAIR_DENTIST_UNKNOWN,
  CHAIR_NAME_TAKEN,
  CHAIR_NOT_FOUND,
  CHAIR_ORDER_MISMATCH,
  type Chair,
  type chairBodySchema,
  chairHasVisitsToCome,
} from '@dental/shared/domain';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Reader, Transaction } from '../../db/client';
import { clinicToday } from '../../db/clinicTime';
import { UNIQUE_VIOLATION, violated } from '../../db/databaseErrors';
import { Conflict, InvalidValue, NotFound } from '../../domain/errors';
import { type ExpectedVersion, requireVersion } from '../../plugins/versions';
import { type Actor, recordActorAudit } from '../actorAudit';

type ChairFields = z.output<typeof chairBodySchema>;

/** A chair as every answer gives it: its default dentist named (a deleted one is no default). */
const chairSelect = sql`
  select c.id, c.name, c.position, c.in_service, c.bookable_online, c.default_dentist_id,
    d.name as default_dentist_name, c.version
  from chairs c
  left join dentists d on d.clinic_id = c.clinic_id and d.id = c.default_dentist_id`;

/** The clinic's chairs in service order (retired ones left out). */
export async function listChairs(db: Reader, clinicId: number): Promise<Chair[]> {
  const { rows } = await db.execute(sql`${chairSelect}
    where c.clinic_id = ${clinicId} and c.retired_at is null
    order by c.position, c.id`);
  return rows as unknown as Chair[];
}

/** One chair that is not retired, or null. */
export async function findChair(db: Reader, clinicId: number, id: number): Promise<Chair | null> {
  const { rows } = await db.execute(sql`${chairSelect}
    where c.clinic_id = ${clinicId} and c.id = ${id} and c.retired_at is null`);
  return (rows[0] as unknown as Chair | undefined) ?? null;
}

/** Names clash only among chairs in use: the unique index says so, under races too. */
async function namedUniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violated(error, [UNIQUE_VIOLATION], 'chairs_name_unique')) {
      throw new Conflict(CHAIR_NAME_TAKEN, [{ field: 'name', message: CHAIR_NAME_TAKEN }]);
    }
    throw error;
  }
}

/** A default dentist must be one of the clinic's active dentists (the key alone allows a deleted one). */
async function requireActiveDentist(tx: Transaction, clinicId: number, dentistId: number | null) {
  if (dentistId === null) return;
  const { rows } = await tx.execute(sql`
    select 1 from dentists where clinic_id = ${clinicId} and id = ${dentistId}
      and status = 'active' and deleted_at is null`);
  if (rows.length === 0) throw InvalidValue.of('default_dentist_id', CHAIR_DENTIST_UNKNOWN);
}

async function chairById(tx: Transaction, clinicId: number, id: number): Promise<Chair> {
  const chair = await findChair(tx, clinicId, id);
  if (!chair) throw new NotFound(CHAIR_NOT_FOUND);
  return chair;
}

/** Adds a chair after the clinic's last one. */
export function createChair(db: Database, actor: Actor, body: ChairFields): Promise<Chair> {
  return namedUniquely(() =>
    db.transaction(async (tx) => {
      await requireActiveDentist(tx, actor.clinicId, body.default_dentist_id);
      const { rows } = await tx.execute(sql`
        insert into chairs (clinic_id, name, position, in_service, bookable_online, default_dentist_id)
        values (${actor.clinicId}, ${body.name},
          (select coalesce(max(position), 0) + 1 from chairs where clinic_id = ${actor.clinicId}
            and retired_at is null),
          ${body.in_service}, ${body.bookable_online}, ${body.default_dentist_id})
        returning id`);
      const { id } = rows[0] as { id: number };
      return auditedChair(tx, actor, 'create', id, body.name);
    }),
  );
}

/** Records an added or edited chair on the trail, and answers it as it now is. */
async function auditedChair(
  tx: Transaction,
  actor: Actor,
  action: 'create' | 'update',
  id: number,
  name: string,
): Promise<Chair> {
  await recordActorAudit(tx, actor, { action, entity: 'chair', entityId: id, details: { name } });
  return chairById(tx, actor.clinicId, id);
}

/** Renames a chair, takes it out of service or back, and sets its default dentist, under If-Match. */
export function updateChair(
  db: Database,
  actor: Actor,
  id: number,
  body: ChairFields,
  expected: ExpectedVersion,
): Promise<Chair> {
  return namedUniquely(() =>
    db.transaction(async (tx) => {
      await holdChair(tx, actor.clinicId, id, expected);
      await requireActiveDentist(tx, actor.clinicId, body.default_dentist_id);
      await tx.execute(sql`
        update chairs set name = ${body.name}, in_service = ${body.in_service},
          bookable_online = ${body.bookable_online}, default_dentist_id = ${body.default_dentist_id},
          updated_at = now()
        where clinic_id = ${actor.clinicId} and id = ${id}`);
      return auditedChair(tx, actor, 'update', id, body.name);
    }),
  );
}

/** Retires a chair under If-Match: it leaves the list and the order closes up; its row stays. */
export function retireChair(
  db: Database,
  actor: Actor,
  id: number,
  expected: ExpectedVersion,
): Promise<void> {
  return db.transaction(async (tx) => {
    await holdChair(tx, actor.clinicId, id, expected);
    // Held under the chair's lock: a booking into it waits for this write (appointments_hold_time).
    const { rows: toCome } = await tx.execute(sql`
      select count(*)::int as visits from appointments
      where clinic_id = ${actor.clinicId} and chair_id = ${id} and status in ('pending', 'confirmed')
        and date >= ${await clinicToday(tx, actor.clinicId)}::date`);
    const visits = (toCome[0] as { visits: number }).visits;
    if (visits > 0) throw new Conflict(chairHasVisitsToCome(visits));
    const { rows } = await tx.execute(sql`
      update chairs set retired_at = now(), updated_at = now()
      where clinic_id = ${actor.clinicId} and id = ${id}
      returning name, position`);
    const retired = rows[0] as { name: string; position: number };
    await tx.execute(sql`
      update chairs set position = position - 1, updated_at = now()
      where clinic_id = ${actor.clinicId} and retired_at is null and position > ${retired.position}`);
    await recordActorAudit(tx, actor, {
      action: 'delete',
      entity: 'chair',
      entityId: id,
      details: { name: retired.name },
    });
  });
}

/** Puts the clinic's chairs in the order given: every chair in use, each once. */
export function reorderChairs(db: Database, actor: Actor, ids: number[]): Promise<Chair[]> {
  return db.transaction(async (tx) => {
    // Held in order, so two reorders at once take their turns.
    const { rows } = await tx.execute(sql`
      select id from chairs where clinic_id = ${actor.clinicId} and retired_at is null
      order by id for update`);
    const inUse = (rows as Array<{ id: number }>).map((row) => row.id);
    if (inUse.length !== ids.length || !ids.every((id) => inUse.includes(id))) {
      throw InvalidValue.of('ids', CHAIR_ORDER_MISMATCH);
    }
    await tx.execute(sql`
      update chairs set position = ordered.place, updated_at = now()
      from unnest(${`{${ids.join(',')}}`}::int[]) with ordinality as ordered(id, place)
      where chairs.clinic_id = ${actor.clinicId} and chairs.id = ordered.id
        and chairs.position is distinct from ordered.place`);
    await recordActorAudit(tx, actor, {
      action: 'update',
      entity: 'chair',
      entityId: null,
      details: { order: ids },
    });
    return listChairs(tx, actor.clinicId);
  });
}

/** Holds a chair in use for the write, as it was shown (If-Match): 404 when gone, 412 when changed. */
async function holdChair(
  tx: Transaction,
  clinicId: number,
  id: number,
  expected: ExpectedVersion,
): Promise<void> {
  const { rows } = await tx.execute(sql`
    select version from chairs where clinic_id = ${clinicId} and id = ${id} and retired_at is null for update`);
  const row = rows[0] as { version: number } | undefined;
  if (!row) throw new NotFound(CHAIR_NOT_FOUND);
  requireVersion(row.version, expected);
}
