import { z } from 'zod';
import { responseSerializerCompiler } from './responseSerialization';

const visitSchema = z.object({
  id: z.number().int(),
  notes: z.string().nullable(),
  next: z.object({ date: z.string(), time: z.string() }).nullable(),
  status: z.enum(['pending', 'confirmed']),
  total_capped: z.boolean().optional(),
});

const compile = (checkAgainstZod: boolean) =>
  responseSerializerCompiler({ checkAgainstZod })({
    schema: visitSchema,
    method: 'GET',
    url: '/visits',
    httpStatus: '200',
  });

describe('response serialization', () => {
  it('writes only the fields of the schema, nulls included, as zod would', () => {
    const written = compile(false)({
      id: 7,
      notes: null,
      next: { date: '2026-12-01', time: '09:00', secret: 'left out' },
      status: 'pending',
      password_hash: 'never sent',
    });
    expect(JSON.parse(written)).toEqual({
      id: 7,
      notes: null,
      next: { date: '2026-12-01', time: '09:00' },
      status: 'pending',
    });
    expect(
      JSON.parse(compile(false)({ id: 8, notes: 'Bring X-rays "old"', next: null, status: 'confirmed' })),
    ).toEqual({ id: 8, notes: 'Bring X-rays "old"', next: null, status: 'confirmed' });
  });

  it('checked against zod (the tests), refuses an answer zod refuses', () => {
    expect(() => compile(true)({ id: 'seven', notes: null, next: null, status: 'pending' })).toThrow();
    expect(() => compile(true)({ id: 7, notes: null, next: null, status: 'lost' })).toThrow();
    expect(
      compile(true)({ id: 7, notes: null, next: null, status: 'pending', total_capped: true }),
    ).toContain('"total_capped":true');
  });
});
