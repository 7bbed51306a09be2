import { z } from 'zod';

const ignored = (why: string) => z.unknown().optional().describe(`Ignored: ${why}`);
type Ignored = ReturnType<typeof ignored>;

/**
 * The fields a row's answer carries that the server owns (`derived`: the ones it works out, with
 * what from), for a write schema: a PUT of what GET answered succeeds, and they are ignored, while any
 * other unknown field is still refused.
 */
export function serverOwnedFields<Derived extends string>(derived: Record<Derived, string>) {
  const derivedFields = Object.fromEntries(
    Object.entries<string>(derived).map(([field, why]) => [field, ignored(why)]),
  ) as Record<Derived, Ignored>;
  return {
    id: ignored('the server owns it'),
    clinic_id: ignored('the server owns it'),
    ...derivedFields,
    created_at: ignored('the server owns it'),
    updated_at: ignored('the server owns it'),
    version: ignored('sent in If-Match, not the body'),
  };
}
