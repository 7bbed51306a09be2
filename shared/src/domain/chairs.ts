import { z } from 'zod';
import { requiredText } from './validation';

/**
 * Chairs: the clinic's operatories, in the clinic's order (docs/product.md, Chairs). Every role reads
 * them; admins add, rename, reorder, take out of service and retire them. A retired chair keeps its
 * history and leaves the list; its name may be used again.
 */

/** GET the clinic's chairs in order (any signed-in staff); POST one (admins). PUT/DELETE `/:id`. */
export const CHAIRS_URL = '/api/chairs';
/** PUT `{ ids }`: the clinic's chairs in their new order (admins). */
export const CHAIR_ORDER_URL = '/api/chairs/order';

export const CHAIR_NAME_MAX = 40;
export const CHAIR_NOT_FOUND = 'Chair not found';
export const CHAIR_RETIRED = 'Chair retired';
export const CHAIR_NAME_TAKEN = 'Another chair has this name';
export const CHAIR_DENTIST_UNKNOWN = 'Choose one of the clinic’s active dentists';
export const CHAIR_ORDER_MISMATCH = 'Name every chair of the clinic once, in its new order';
/** A chair with visits to come is not retired: they are moved first (or the chair is taken out of service). */
export const chairHasVisitsToCome = (visits: number) =>
  `This chair holds ${visits} ${visits === 1 ? 'appointment' : 'appointments'} to come: move ${visits === 1 ? 'it' : 'them'} to another chair first, or take the chair out of service`;
/** A visit asked for a chair that is not one of the clinic's chairs in use. */
export const CHAIR_UNKNOWN = 'Choose one of the clinic’s chairs';
export const chairOutOfServiceMessage = (name: string) => `${name} is out of service`;
/** A visit's chair is taken: "Chair 2 is taken 10:00–10:40". */
export const chairTakenMessage = (name: string, range: string) => `${name} is taken ${range}`;
/** No chair was asked for and none is free. */
export const noChairFreeMessage = (date: string, range: string) => `No chair is free on ${date} at ${range}`;

export const chairSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  position: z.number().int(),
  in_service: z.boolean(),
  bookable_online: z.boolean(),
  default_dentist_id: z.number().int().nullable(),
  default_dentist_name: z.string().nullable(),
  version: z.number().int(),
});
export type Chair = z.infer<typeof chairSchema>;
export const chairListSchema = z.object({ data: z.array(chairSchema) });
export type ChairList = z.infer<typeof chairListSchema>;

/** POST and PUT of a chair. A new chair goes last in the order. */
export const chairBodySchema = z
  .object({
    name: requiredText(CHAIR_NAME_MAX),
    in_service: z.boolean().optional().default(true),
    bookable_online: z.boolean().optional().default(true),
    default_dentist_id: z
      .number({ message: CHAIR_DENTIST_UNKNOWN })
      .int({ message: CHAIR_DENTIST_UNKNOWN })
      .positive({ message: CHAIR_DENTIST_UNKNOWN })
      .nullable()
      .optional()
      .default(null),
    version: z.unknown().optional().describe('Ignored: sent in If-Match, not the body'),
  })
  .strict();
export type ChairBody = z.input<typeof chairBodySchema>;

export const chairOrderSchema = z
  .object({
    ids: z
      .array(z.number().int().positive(), { message: CHAIR_ORDER_MISMATCH })
      .min(1, { message: CHAIR_ORDER_MISMATCH })
      .refine((ids) => new Set(ids).size === ids.length, { message: CHAIR_ORDER_MISMATCH }),
  })
  .strict();
export type ChairOrder = z.infer<typeof chairOrderSchema>;
